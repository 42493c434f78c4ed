import { describe, expect, it } from 'vitest';
import type { RecognizedSegment } from './recognition-engine.ts';
import { summarizeLanguages, wordSeparator } from './summarize-languages.ts';

const segment = (start: number, end: number, language: string | null): RecognizedSegment => ({
  start,
  end,
  text: 'x',
  words: [],
  language,
});

describe('summarizeLanguages', () => {
  it('should keep a requested language as the only one, with null probability and duration (2.3.4)', () => {
    expect(summarizeLanguages([segment(0, 5, 'fr')], 'en', 'en')).toEqual({
      language: 'en',
      languages: [{ code: 'en', name: 'English', probability: null, duration: null }],
    });
  });

  it('should take the language the engine reported for the most speech time', () => {
    const result = summarizeLanguages([segment(0, 2, 'en'), segment(2, 10, 'de'), segment(10, 11, 'en')], null, 'en');
    expect(result.language).toBe('de');
    expect(result.languages).toEqual([
      { code: 'de', name: 'German', probability: null, duration: 8 },
      { code: 'en', name: 'English', probability: null, duration: 3 },
    ]);
  });

  it('should give the one language found its duration when multilingual was asked, and keep it null otherwise', () => {
    const segments = [segment(0, 2.5, 'de'), segment(4, 5.25, 'de'), segment(6, 7, null)];
    expect(summarizeLanguages(segments, null, 'en', { multilingual: true }).languages).toEqual([
      { code: 'de', name: 'German', probability: null, duration: 3.75 },
    ]);
    expect(summarizeLanguages(segments, null, 'en', { multilingual: false }).languages).toEqual([
      { code: 'de', name: 'German', probability: null, duration: null },
    ]);
    expect(summarizeLanguages(segments, 'fr', 'en', { multilingual: true }).languages).toEqual([
      { code: 'fr', name: 'French', probability: null, duration: null },
    ]);
    expect(summarizeLanguages([segment(0, 1, null)], null, 'en', { multilingual: true }).languages).toEqual([
      { code: 'en', name: 'English', probability: null, duration: null },
    ]);
  });

  it("should fall back to the engine's default when no segment carries a language", () => {
    expect(summarizeLanguages([segment(0, 1, null)], null, 'en').languages).toEqual([
      { code: 'en', name: 'English', probability: null, duration: null },
    ]);
  });
});

describe('wordSeparator', () => {
  it('should join Chinese and Japanese words without spaces and others with one', () => {
    expect(wordSeparator('zh')).toBe('');
    expect(wordSeparator('ja')).toBe('');
    expect(wordSeparator('en')).toBe(' ');
    expect(wordSeparator(null)).toBe(' ');
  });
});
