import { describe, expect, it } from 'vitest';
import { normalizeSherpaLanguage, shapeSherpaResults, type SherpaUtteranceResult } from './shape-sherpa-result.ts';

const result = (overrides: Partial<SherpaUtteranceResult>): SherpaUtteranceResult => ({
  start: 10,
  end: 14,
  text: '',
  tokens: [],
  timestamps: [],
  lang: '',
  ...overrides,
});

describe('shapeSherpaResults', () => {
  it('should make words from token times, joining pieces and shifting by the utterance start', () => {
    const [segment] = shapeSherpaResults(
      [
        result({
          text: 'And so, my fellow',
          tokens: [' And', ' so', ',', ' my', ' fel', 'low'],
          timestamps: [0.2, 0.6, 0.9, 1.5, 1.9, 2.1],
        }),
      ],
      [{ start: 10, end: 14 }],
      'en',
    );
    expect(segment).toEqual({
      start: 10,
      end: 14,
      text: 'And so, my fellow',
      language: 'en',
      words: [
        { text: 'And', start: 10.2, end: 10.6, confidence: null },
        { text: 'so,', start: 10.6, end: 11.5, confidence: null },
        { text: 'my', start: 11.5, end: 11.9, confidence: null },
        { text: 'fellow', start: 11.9, end: 12.9, confidence: null },
      ],
      avgLogprob: null,
    });
  });

  it('should score words and the segment from the token log-probabilities (ys_log_probs)', () => {
    const logProbs = [-0.1, -0.3, -2, -0.05, -1.2, -0.4];
    const [segment] = shapeSherpaResults(
      [
        result({
          text: 'And so, my fellow',
          tokens: [' And', ' so', ',', ' my', ' fel', 'low'],
          timestamps: [0.2, 0.6, 0.9, 1.5, 1.9, 2.1],
          logProbs,
        }),
      ],
      [{ start: 10, end: 14 }],
      'en',
    );
    expect(segment!.avgLogprob).toBeCloseTo(logProbs.reduce((a, b) => a + b) / logProbs.length, 4);
    // a word of several tokens: exp of their mean log-probability
    expect(segment!.words.map((word) => word.confidence)).toEqual([
      Number(Math.exp(-0.1).toFixed(4)),
      Number(Math.exp((-0.3 - 2) / 2).toFixed(4)),
      Number(Math.exp(-0.05).toFixed(4)),
      Number(Math.exp((-1.2 - 0.4) / 2).toFixed(4)),
    ]);
  });

  it('should give no scores when the log-probabilities do not match the tokens one to one', () => {
    const [segment] = shapeSherpaResults(
      [result({ text: 'a b', tokens: [' a', ' b'], timestamps: [0.1, 0.5], logProbs: [-0.2] })],
      [{ start: 10, end: 14 }],
      'en',
    );
    expect(segment!.avgLogprob).toBeNull();
    expect(segment!.words.every((word) => word.confidence === null)).toBe(true);
  });

  it('should take sentencepiece ▁ word marks as word starts', () => {
    const [segment] = shapeSherpaResults(
      [result({ text: 'hello world', tokens: ['▁hel', 'lo', '▁world'], timestamps: [0, 0.3, 0.8] })],
      [],
      null,
    );
    expect(segment!.words.map((word) => word.text)).toEqual(['hello', 'world']);
  });

  it('should spread words without times over the speech only, never into a pause', () => {
    const [segment] = shapeSherpaResults(
      [result({ start: 0, end: 10, text: 'aa bb cc dd' })],
      [
        { start: 1, end: 3 },
        { start: 7, end: 9 },
      ],
      null,
    );
    expect(segment!.words).toEqual([
      { text: 'aa', start: 1, end: 2, confidence: null },
      { text: 'bb', start: 2, end: 3, confidence: null },
      { text: 'cc', start: 7, end: 8, confidence: null },
      { text: 'dd', start: 8, end: 9, confidence: null },
    ]);
  });

  it('should drop empty utterances and take the model language when none was requested', () => {
    const segments = shapeSherpaResults(
      [
        result({ text: '  ' }),
        result({ text: '你好', lang: '<|zh|>' }),
        result({ text: 'hola', lang: 'es' }),
        result({ text: 'x', lang: '<|nospeech|>' }),
      ],
      [],
      null,
    );
    expect(segments.map((segment) => [segment.text, segment.language])).toEqual([
      ['你好', 'zh'],
      ['hola', 'es'],
      ['x', null],
    ]);
  });
});

describe('normalizeSherpaLanguage', () => {
  it('should map model language labels to spec 2.5 codes', () => {
    expect(normalizeSherpaLanguage('<|yue|>')).toBe('yue');
    expect(normalizeSherpaLanguage('EN')).toBe('en');
    expect(normalizeSherpaLanguage('')).toBeNull();
    expect(normalizeSherpaLanguage('klingon')).toBeNull();
  });
});
