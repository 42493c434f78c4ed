import { doubleMetaphone } from 'double-metaphone';
import { isVowel } from './measure-phoneme-distance.ts';

/**
 * ARPAbet vowels a spelt vowel group may stand for in English (a rough letter-to-sound table for
 * words missing from the dictionary). Groups not listed take the union of their letters' sets.
 */
const VOWEL_SOUNDS: Record<string, readonly string[]> = {
  a: ['AE', 'EY', 'AA', 'AH', 'AO', 'EH'],
  e: ['EH', 'IY', 'AH', 'IH', 'ER', 'EY'],
  i: ['IH', 'AY', 'IY', 'AH', 'ER'],
  o: ['AA', 'OW', 'AO', 'AH', 'UW', 'ER'],
  u: ['AH', 'UW', 'UH', 'ER', 'IH'],
  y: ['IY', 'IH', 'AY'],
  ai: ['EY', 'AY', 'EH'],
  ay: ['EY', 'AY'],
  au: ['AO', 'AA'],
  aw: ['AO', 'AA'],
  ea: ['IY', 'EH', 'EY'],
  ee: ['IY'],
  ei: ['EY', 'IY', 'AY'],
  ey: ['EY', 'IY'],
  eu: ['UW'],
  ew: ['UW'],
  ie: ['IY', 'AY'],
  oa: ['OW'],
  oi: ['OY'],
  oy: ['OY'],
  oo: ['UW', 'UH'],
  ou: ['AW', 'OW', 'UW', 'AH'],
  ow: ['AW', 'OW'],
  ue: ['UW'],
  ui: ['UW', 'IH'],
};

/** Spelt vowel groups of a token: a word-initial `y` is a consonant, a final silent `e` is dropped. */
function vowelGroups(token: string): string[] {
  const groups =
    token
      .replace(/^y/, '')
      .replace(/([^aeiouy])e$/, '$1')
      .match(/[aeiouy]+/g) ?? [];
  return groups.length > 0 ? groups : (token.match(/[aeiouy]+/g) ?? []);
}

function soundsOf(group: string): ReadonlySet<string> {
  return new Set(VOWEL_SOUNDS[group] ?? [...group].flatMap((letter) => VOWEL_SOUNDS[letter] ?? []));
}

/**
 * Double Metaphone keys of each token (primary and secondary). The `A` Double Metaphone writes for
 * a word-initial vowel is dropped after the first token, so `graph ana` gives KRFN like `Grafana`.
 */
export function tokenKeys(tokens: readonly string[]): string[][] {
  return tokens.map((token, i) => [...new Set(doubleMetaphone(token).map((key) => (i > 0 ? key.replace(/^A/, '') : key)))]);
}

/** Every joined combination of the tokens' keys (at most 8). */
export function joinKeys(keys: readonly string[][]): string[] {
  return keys.reduce<string[]>((joined, options) => joined.flatMap((key) => options.map((option) => key + option)), ['']).slice(0, 8);
}

/** Whether the span's dictionary vowels fit the hint's spelt vowel groups one by one. */
function vowelsFit(spanPhonemes: readonly (readonly string[])[], hint: readonly string[]): boolean {
  const groups = hint.flatMap(vowelGroups).map(soundsOf);
  return spanPhonemes.some((phonemes) => {
    const vowels = phonemes.filter(isVowel);
    return vowels.length === groups.length && vowels.every((vowel, i) => groups[i]!.has(vowel));
  });
}

/** Tokens with their Double Metaphone keys (tokenKeys) and, when known, dictionary pronunciations. */
export interface SpeltSounds {
  tokens: readonly string[];
  keys: readonly string[][];
  /** joinKeys(keys). */
  joinedKeys: readonly string[];
  phonemes: readonly (readonly string[])[] | null;
}

/**
 * Spelling path, for a hint or recognised word missing from the pronunciation dictionary (a
 * product name, another language): one Double Metaphone key of each must be equal and at least 3
 * letters long, and every recognised word must give key letters (so `up when i` is not `OpenAI`).
 * Keys carry no vowels, so the vowels are checked too: with the span's dictionary pronunciations
 * (`span.phonemes`), each vowel must be one the hint's spelt vowel group can stand for
 * (`center` is not `Sintra`: EH is no sound of `i`); without them, the numbers of spelt vowel
 * groups must be equal.
 * @returns 0.2 (a key match ranks after phoneme matches of the same quality) or null.
 */
export function matchBySpelling(span: SpeltSounds, hint: SpeltSounds): number | null {
  if (span.keys.some((options) => options.every((key) => key === ''))) return null;
  if (!span.joinedKeys.some((key) => key.length >= 3 && hint.joinedKeys.includes(key))) return null;
  if (span.phonemes) return vowelsFit(span.phonemes, hint.tokens) ? 0.2 : null;
  return span.tokens.flatMap(vowelGroups).length === hint.tokens.flatMap(vowelGroups).length ? 0.2 : null;
}
