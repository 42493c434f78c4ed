import { describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../../contract/output/transcript-model.ts';
import { applySpellingHints } from './apply-spelling-hints.ts';
import { DEFAULT_PRONUNCIATION_DICTIONARY } from './read-pronunciations.ts';
import type { RecognizedSegment } from '../recognition-engine.ts';

/** A segment whose words last 0.5 s each from `start`, with `confidence` each (null by default). */
function segment(
  text: string,
  options: { start?: number; language?: string | null; confidences?: Array<number | null> } = {},
): RecognizedSegment {
  const start = options.start ?? 10;
  const words: TranscriptWord[] = text.split(' ').map((word, i) => ({
    text: word,
    start: start + i * 0.5,
    end: start + i * 0.5 + 0.4,
    confidence: options.confidences?.[i] ?? null,
  }));
  return { start, end: words.at(-1)!.end, text, words, language: options.language === undefined ? 'en' : options.language };
}

const apply = (segments: RecognizedSegment[], hints: string[]) =>
  applySpellingHints(segments, hints, { dictionaryPath: DEFAULT_PRONUNCIATION_DICTIONARY });

describe('applySpellingHints', () => {
  it('should replace words that sound like a hotword, keeping the span times', async () => {
    const result = await apply(
      [segment('and mr john guess would have been at leisure', { confidences: [0.9, 0.9, 0.9, 0.6, 0.8] })],
      ['Dashwood'],
    );
    const [corrected] = result.segments;
    expect(corrected!.text).toBe('and mr john Dashwood have been at leisure');
    expect(corrected!.words[3]).toEqual({ text: 'Dashwood', start: 11.5, end: 12.4, confidence: 0.6 });
    expect(corrected!.words).toHaveLength(8);
    expect(result).toMatchObject({ replaced: 1, recased: 0 });
  });

  it('should give a replaced span confidence null when a word has none', async () => {
    const result = await apply([segment('mr guess would', { confidences: [0.9, 0.6, null] })], ['Dashwood']);
    expect(result.segments[0]!.words[1]).toMatchObject({ text: 'Dashwood', confidence: null });
  });

  it('should give a hotword already present the user casing, word by word with their times', async () => {
    const original = segment('this is diane in new jersey');
    const result = await apply([original], ['New Jersey', 'DIANE']);
    expect(result.segments[0]!.words.map((w) => w.text)).toEqual(['this', 'is', 'DIANE', 'in', 'New', 'Jersey']);
    expect(result.segments[0]!.words.map((w) => [w.start, w.end])).toEqual(original.words.map((w) => [w.start, w.end]));
    expect(result).toMatchObject({ replaced: 0, recased: 2 });
  });

  it('should not replace ordinary words that merely sound close to hotwords', async () => {
    const text = 'he was born in the north and it may well be easy and really up when i center four years';
    const result = await apply(
      [segment(text)],
      ['Byron', 'Norland', 'Willoughby', 'Easier', 'Lily', 'OpenAI', 'Sintra', 'Ferrars', 'Bee', 'Wynn'],
    );
    expect(result.segments[0]!.text).toBe(text);
    expect(result).toMatchObject({ replaced: 0, recased: 0 });
  });

  it('should replace multi-word spans by a hotword missing from the dictionary and keep punctuation', async () => {
    const result = await apply([segment('we deploy on cooper net ease, then graph ana.')], ['Kubernetes', 'Grafana']);
    expect(result.segments[0]!.text).toBe('we deploy on Kubernetes, then Grafana.');
    expect(result.segments[0]!.words.at(-1)).toMatchObject({ text: 'Grafana.', start: 13.5, end: 14.4 });
    expect(result.replaced).toBe(2);
  });

  it('should use dictionary sounds only for English segments', async () => {
    const result = await apply([segment('guess would', { language: 'en' }), segment('guess would', { language: 'de' })], ['Dashwood']);
    expect(result.segments.map((s) => s.text)).toEqual(['Dashwood', 'guess would']);
  });

  it('should let the closest candidate win where candidates overlap', async () => {
    const result = await apply([segment('mr guess would')], ['Dashwood', 'Guess']);
    expect(result.segments[0]!.text).toBe('mr Guess would');
  });

  it('should leave segments without words and requests without hints unchanged', async () => {
    const bare: RecognizedSegment = { start: 0, end: 1, text: 'guess would', words: [], language: 'en' };
    expect((await apply([bare], ['Dashwood'])).segments).toEqual([bare]);
    const plain = segment('guess would');
    expect(await apply([plain], [' ', ''])).toEqual({ segments: [plain], replaced: 0, recased: 0 });
  });
});
