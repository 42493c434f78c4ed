import { joinKeys, matchBySpelling, tokenKeys } from './match-by-spelling.ts';
import { isVowel, measurePhonemeDistance } from './measure-phoneme-distance.ts';
import type { Pronunciations } from './read-pronunciations.ts';

/**
 * How far (weighted phoneme distance, measure-phoneme-distance.ts) recognised words may sound from
 * a hint of `n` phonemes and still be taken for it: 4–5 phonemes one close vowel (0.25), 6–8
 * phonemes 1 (e.g. three near sounds: `guess would` for `Dashwood` is 0.875), longer 0.15 per
 * phoneme. Hints of 3 phonemes or fewer are never matched by sound (too many ordinary words are
 * that close), only by spelling.
 */
export function allowedPhonemeDistance(n: number): number {
  if (n <= 3) return -1;
  if (n <= 5) return 0.25;
  if (n <= 8) return 1;
  return 0.15 * n;
}

/** A word's pronunciations; a possessive missing from the dictionary is its base word + Z (`alderman's`). */
function pronounce(token: string, pronunciations: Pronunciations): readonly (readonly string[])[] | undefined {
  const found = pronunciations.get(token);
  if (found || !token.endsWith("'s")) return found;
  return pronunciations.get(token.slice(0, -2))?.map((variant) => [...variant, 'Z']);
}

/** Every combination of the tokens' pronunciations (at most `limit`), each joined into one sequence. */
function combine(tokens: readonly string[], pronunciations: Pronunciations, limit = 16): string[][] | null {
  let combos: string[][] = [[]];
  for (const token of tokens) {
    const variants = pronounce(token, pronunciations);
    if (!variants) return null;
    combos = combos.flatMap((combo) => variants.map((variant) => [...combo, ...variant])).slice(0, limit);
  }
  return combos;
}

/**
 * Phoneme path (both sides in the dictionary): the closest pair of pronunciations must be within
 * allowedPhonemeDistance(hint phonemes) and have the same number of vowels (syllables): a
 * recogniser gets sounds wrong far more often than their number, and this keeps `well be` from
 * becoming `Willoughby`.
 */
function matchByPhonemes(span: Sounds, hint: Sounds): number | null {
  let best: number | null = null;
  for (const [j, h] of (hint.phonemes ?? []).entries()) {
    const allowed = allowedPhonemeDistance(h.length);
    if (allowed < 0) continue;
    for (const [i, s] of (span.phonemes ?? []).entries()) {
      if (Math.abs(s.length - h.length) * 0.35 > allowed || span.vowels[i] !== hint.vowels[j]) continue;
      const distance = measurePhonemeDistance(s, h);
      if (distance <= allowed && (best === null || distance / h.length < best)) best = distance / h.length;
    }
  }
  return best;
}

/** Words prepared for comparison once (apply-spelling-hints.ts compares each with many others). */
export interface Sounds {
  /** Lowercase tokens, punctuation stripped. */
  tokens: readonly string[];
  /** Dictionary pronunciation combinations, or null when a token is missing from the dictionary. */
  phonemes: string[][] | null;
  /** Vowel count of each pronunciation combination. */
  vowels: number[];
  /** Double Metaphone keys per token, and joined (match-by-spelling.ts). */
  keys: string[][];
  joinedKeys: string[];
}

/** Prepares `tokens` (lowercase, punctuation stripped) for matchSoundAlike. */
export function describeSounds(tokens: readonly string[], pronunciations: Pronunciations): Sounds {
  const phonemes = combine(tokens, pronunciations);
  const keys = tokenKeys(tokens);
  return { tokens, phonemes, vowels: phonemes?.map((p) => p.filter(isVowel).length) ?? [], keys, joinedKeys: joinKeys(keys) };
}

/**
 * Whether recognised words `span` sound like hint `hint` (both from describeSounds). Spellings
 * equal once spaces are removed (`dash wood` / `dashwood`) match at 0; otherwise the phoneme path
 * when every token of both has a pronunciation, else the spelling path (match-by-spelling.ts).
 * @returns a score (0 = same, larger = further: distance per hint phoneme, 0.2 for a key match),
 *   or null when they do not match.
 */
export function matchSoundAlike(span: Sounds, hint: Sounds): number | null {
  if (span.tokens.join('') === hint.tokens.join('')) return 0;
  if (span.phonemes && hint.phonemes) return matchByPhonemes(span, hint);
  return matchBySpelling(span, hint);
}
