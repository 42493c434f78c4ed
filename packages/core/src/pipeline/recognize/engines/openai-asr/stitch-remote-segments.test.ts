import { describe, expect, it } from 'vitest';
import { mapRemoteLanguage } from './map-remote-language.ts';
import { stitchRemoteSegments } from './stitch-remote-segments.ts';

/** The shape OpenAI's whisper-1 answers (verbose_json, both granularities), shortened. */
const ANSWER = {
  task: 'transcribe',
  language: 'english',
  duration: 10.9,
  text: 'And so my fellow Americans, ask not what your country can do for you.',
  segments: [
    {
      id: 0,
      seek: 0,
      start: 0,
      end: 4.2,
      text: ' And so my fellow Americans,',
      tokens: [1],
      temperature: 0,
      avg_logprob: -0.2,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    },
    {
      id: 1,
      seek: 0,
      start: 4.2,
      end: 12.5,
      text: ' ask not what your country can do for you.',
      tokens: [2],
      temperature: 0,
      avg_logprob: -0.5,
      compression_ratio: 1.2,
      no_speech_prob: 0.01,
    },
  ],
  words: [
    { word: 'And', start: 0.3, end: 0.5 },
    { word: 'so', start: 0.5, end: 0.8 },
    { word: 'Americans,', start: 3.5, end: 4.3 },
    { word: 'ask', start: 4.4, end: 4.7 },
    { word: 'you.', start: 10.5, end: 12.4 },
  ],
};

describe('stitchRemoteSegments', () => {
  it('should shift segments and words by the chunk start and clamp them to the chunk', () => {
    const [first, second] = stitchRemoteSegments(ANSWER, { start: 20, end: 31 }, null);
    expect(first).toMatchObject({ start: 20, end: 24.2, text: 'And so my fellow Americans,', language: 'en' });
    expect(second).toMatchObject({ start: 24.2, end: 31, text: 'ask not what your country can do for you.' });
    expect(second!.words.at(-1)).toMatchObject({ start: 30.5, end: 31, text: 'you.' });
  });

  it("should give each word to the segment it falls in, and pass the server's avg_logprob through (not onto the words)", () => {
    const [first, second] = stitchRemoteSegments(ANSWER, { start: 0, end: 13 }, null);
    expect(first!.words.map((w) => w.text)).toEqual(['And', 'so', 'Americans,']); // middle 3.9 s < 4.2 s
    expect(second!.words.map((w) => w.text)).toEqual(['ask', 'you.']);
    expect([first!.avgLogprob, second!.avgLogprob]).toEqual([-0.2, -0.5]);
    expect(first!.words.every((word) => word.confidence === null)).toBe(true); // OpenAI's words carry no probability
  });

  it('should leave confidence null and words empty when the server gives neither', () => {
    const bare = { ...ANSWER, words: undefined, segments: ANSWER.segments.map(({ avg_logprob: _drop, ...rest }) => rest) };
    const segments = stitchRemoteSegments({ ...bare, words: [{ word: 'x', start: 1, end: 1.2 }] }, { start: 0, end: 13 }, null);
    expect(segments[0]!.words[0]!.confidence).toBeNull();
    expect(segments[0]!.avgLogprob).toBeNull();
    expect(stitchRemoteSegments(bare, { start: 0, end: 13 }, null).every((s) => s.words.length === 0)).toBe(true);
  });

  it("should join whisper.cpp's nested token words into words, with their mean probability", () => {
    const answer = {
      language: 'english',
      text: ' And so my fellow Americans,',
      segments: [
        {
          id: 0,
          start: 0,
          end: 2,
          text: ' And so Americans,',
          words: [
            { word: ' And', start: 0.3, end: 0.5, probability: 0.9 },
            { word: ' so', start: 0.5, end: 0.8, probability: 0.8 },
            { word: ' Amer', start: 1, end: 1.3, probability: 0.6 },
            { word: 'icans', start: 1.3, end: 1.6, probability: 0.8 },
            { word: ',', start: 1.6, end: 1.6, probability: 1 },
          ],
        },
      ],
    };
    const [segment] = stitchRemoteSegments(answer, { start: 10, end: 12 }, null);
    expect(segment!.words).toEqual([
      { start: 10.3, end: 10.5, text: 'And', confidence: 0.9 },
      { start: 10.5, end: 10.8, text: 'so', confidence: 0.8 },
      { start: 11, end: 11.6, text: 'Americans,', confidence: expect.closeTo(0.8, 6) },
    ]);
  });

  it("should not take vLLM's placeholder scores (-1) for a confidence", () => {
    const answer = {
      segments: [{ start: 0, end: 2, text: ' Hi', avg_logprob: -1, compression_ratio: -1 }],
      words: [{ word: 'Hi', start: 0.1, end: 0.4 }],
    };
    const [segment] = stitchRemoteSegments(answer, { start: 0, end: 2 }, null);
    expect(segment!.words[0]!.confidence).toBeNull();
    expect(segment!.avgLogprob).toBeNull();
  });

  it('should keep nested words without leading spaces as they are', () => {
    const answer = {
      segments: [
        {
          start: 0,
          end: 2,
          text: 'And so',
          words: [
            { word: 'And', start: 0, end: 0.4 },
            { word: 'so', start: 0.5, end: 0.9 },
          ],
        },
      ],
    };
    expect(stitchRemoteSegments(answer, { start: 0, end: 2 }, 'en')[0]!.words.map((w) => w.text)).toEqual(['And', 'so']);
  });

  it('should make one segment spanning the chunk from an answer with only text', () => {
    expect(stitchRemoteSegments({ text: ' Hello there. ' }, { start: 5.5, end: 9 }, 'de')).toEqual([
      { start: 5.5, end: 9, text: 'Hello there.', words: [], language: 'de', avgLogprob: null },
    ]);
  });

  it('should prefer the requested language over the detected one and drop empty segments', () => {
    const segments = stitchRemoteSegments(
      { ...ANSWER, segments: [...ANSWER.segments, { start: 12, end: 12.5, text: '  ' }] },
      { start: 0, end: 13 },
      'fr',
    );
    expect(segments).toHaveLength(2);
    expect(segments.every((s) => s.language === 'fr')).toBe(true);
  });

  it('should refuse an answer that is not a transcription', () => {
    for (const answer of [null, 'plain text', { foo: 1 }]) {
      expect(() => stitchRemoteSegments(answer, { start: 0, end: 1 }, null)).toThrow(
        expect.objectContaining({ code: 'recognition_failed', message: expect.stringContaining('not a verbose_json transcription') }),
      );
    }
  });
});

describe('mapRemoteLanguage', () => {
  it.each([
    ['english', 'en'],
    ['en', 'en'],
    ['English', 'en'],
    ['en-US', 'en'],
    ['haitian creole', 'ht'],
    ['cantonese', 'yue'],
    ['castilian', 'es'],
    ['jv', 'jw'],
    ['javanese', 'jw'],
    ['zh_Hans', 'zh'],
    ['', null],
    ['klingon', null],
    [undefined, null],
  ])('should map %s to %s', (remote, code) => {
    expect(mapRemoteLanguage(remote)).toBe(code);
  });
});
