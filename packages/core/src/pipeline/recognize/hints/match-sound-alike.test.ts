import { beforeAll, describe, expect, it } from 'vitest';
import { allowedPhonemeDistance, describeSounds, matchSoundAlike } from './match-sound-alike.ts';
import { DEFAULT_PRONUNCIATION_DICTIONARY, readPronunciations, type Pronunciations } from './read-pronunciations.ts';

/** Recognised words and hints, lowercase as apply-spelling-hints.ts passes them. */
const MATCHING: Array<[string, string]> = [
  ['guess would', 'dashwood'], // PocketSphinx on the LibriVox clip 0870
  ['dash wood', 'dashwood'],
  ['eleanor', 'elinor'],
  ['marian', 'marianne'],
  ['graph ana', 'grafana'], // hint missing from the dictionary: spelling path
  ['cooper net ease', 'kubernetes'],
  ['post gress', 'postgres'],
];

const NOT_MATCHING: Array<[string, string]> = [
  ['north and', 'norland'], // TH for L: another manner of consonant
  ['well be', 'willoughby'], // 2 syllables for 3
  ['really', 'lily'], // 4 phonemes: only one close vowel may differ
  ['easy', 'easier'],
  ['born', 'byron'],
  ['center', 'sintra'], // spelling path: EH is no sound of `i`
  ['up when i', 'openai'], // `i` gives no key letter
  ['four years', 'ferrars'],
  ['kate', 'cate'], // 3 phonemes: never by sound
  ['the', 'thee'],
];

describe('matchSoundAlike', () => {
  let pronunciations: Pronunciations;
  beforeAll(async () => {
    const words = [...MATCHING, ...NOT_MATCHING].flatMap(([a, b]) => [...a.split(' '), ...b.split(' ')]);
    pronunciations = await readPronunciations(DEFAULT_PRONUNCIATION_DICTIONARY, new Set(words));
  });
  const match = (span: string, hint: string, known = pronunciations) =>
    matchSoundAlike(describeSounds(span.split(' '), known), describeSounds(hint.split(' '), known));

  it.each(MATCHING)('should take "%s" for the hint "%s"', (span, hint) => {
    expect(match(span, hint)).not.toBeNull();
  });

  it.each(NOT_MATCHING)('should not take "%s" for the hint "%s"', (span, hint) => {
    expect(match(span, hint)).toBeNull();
  });

  it('should score equal spellings 0 and closer sounds lower', () => {
    expect(match('dash wood', 'dashwood')).toBe(0);
    expect(match('eleanor', 'elinor')!).toBeLessThan(match('guess would', 'dashwood')!);
  });

  it('should fall back to equal syllable counts without a dictionary', () => {
    const none = new Map();
    expect(match('graph ana', 'grafana', none)).not.toBeNull();
    expect(match('graph', 'grafana', none)).toBeNull();
  });
});

describe('allowedPhonemeDistance', () => {
  it('should allow nothing for short hints and more for longer ones', () => {
    expect(allowedPhonemeDistance(3)).toBeLessThan(0);
    expect(allowedPhonemeDistance(4)).toBeLessThan(allowedPhonemeDistance(6));
    expect(allowedPhonemeDistance(6)).toBeLessThan(allowedPhonemeDistance(12));
  });
});
