/**
 * Weighted edit distance between two ARPAbet phoneme sequences (CMU dictionary symbols, no stress
 * digits), for telling whether recognised words *sound like* a hotword (apply-spelling-hints.ts).
 * Costs come from articulatory features, so near sounds cost little: a vowel for a neighbouring
 * vowel 0.1–0.6, a consonant for one differing only in voicing or in a neighbouring place 0.3,
 * a consonant of another manner as much as dropping one and adding the other; dropping a vowel
 * costs 0.5 (a reduced AH/IH 0.35), a consonant 0.8 (the weak HH/W/Y 0.5).
 */

type Vowel = { height: number; back: number; round: number; glide: number; rhotic: number };
type Consonant = { place: number; manner: Manner; voiced: number };
type Manner = 'stop' | 'fricative' | 'affricate' | 'nasal' | 'liquid' | 'glide';

/** height 1 (high) … 3 (low); back 0 (front) … 2 (back); glide = diphthong. */
const VOWELS: Record<string, Vowel> = {
  IY: v(1, 0),
  IH: v(1.5, 0),
  EY: v(2, 0, 0, 1),
  EH: v(2.5, 0),
  AE: v(3, 0),
  AH: v(2.5, 1),
  ER: v(2, 1, 0, 0, 1),
  AA: v(3, 2),
  AO: v(2.5, 2, 1),
  OW: v(2, 2, 1, 1),
  UH: v(1.5, 2, 1),
  UW: v(1, 2, 1),
  AW: v(3, 1.5, 0, 1),
  AY: v(3, 1, 0, 1),
  OY: v(2.5, 2, 1, 1),
};

/** place: 0 bilabial, 1 labiodental, 2 dental, 3 alveolar, 4 postalveolar, 5 palatal, 6 velar, 7 glottal. */
const CONSONANTS: Record<string, Consonant> = {
  P: c(0, 'stop', 0),
  B: c(0, 'stop', 1),
  M: c(0, 'nasal', 1),
  W: c(0, 'glide', 1),
  F: c(1, 'fricative', 0),
  V: c(1, 'fricative', 1),
  TH: c(2, 'fricative', 0),
  DH: c(2, 'fricative', 1),
  T: c(3, 'stop', 0),
  D: c(3, 'stop', 1),
  N: c(3, 'nasal', 1),
  S: c(3, 'fricative', 0),
  Z: c(3, 'fricative', 1),
  L: c(3, 'liquid', 1),
  R: c(4, 'liquid', 1),
  SH: c(4, 'fricative', 0),
  ZH: c(4, 'fricative', 1),
  CH: c(4, 'affricate', 0),
  JH: c(4, 'affricate', 1),
  Y: c(5, 'glide', 1),
  K: c(6, 'stop', 0),
  G: c(6, 'stop', 1),
  NG: c(6, 'nasal', 1),
  HH: c(7, 'fricative', 0),
};

function v(height: number, back: number, round = 0, glide = 0, rhotic = 0): Vowel {
  return { height, back, round, glide, rhotic };
}

function c(place: number, manner: Manner, voiced: number): Consonant {
  return { place, manner, voiced };
}

const REDUCED = new Set(['AH', 'IH']);
const NEAR_MANNERS = new Set(['stop/affricate', 'affricate/stop', 'fricative/affricate', 'affricate/fricative']);

/**
 * Cost of hearing phoneme `b` where `a` was said: 0 when equal; a vowel for a vowel 0.1–0.6 (the
 * reduced AH and IH for each other 0.15); a
 * consonant for one of the same manner (or stop/fricative ↔ affricate) 0.15 + place (0.15 next
 * place, 0.25 further) + 0.2 near manner + 0.15 voicing, at most 0.75. Anything else (a nasal for a
 * fricative, a vowel for a consonant, unknown symbols) costs as much as dropping one and adding
 * the other: such sounds never count as "near".
 */
export function substitutionCost(a: string, b: string): number {
  if (a === b) return 0;
  const [va, vb] = [VOWELS[a], VOWELS[b]];
  if (va && vb) {
    if (REDUCED.has(a) && REDUCED.has(b)) return 0.15; // CMUdict writes unstressed syllables either way
    const cost =
      0.1 +
      0.15 * Math.abs(va.height - vb.height) +
      0.15 * Math.abs(va.back - vb.back) +
      0.1 * Math.abs(va.round - vb.round) +
      0.1 * Math.abs(va.glide - vb.glide) +
      0.2 * Math.abs(va.rhotic - vb.rhotic);
    return Math.min(0.6, cost);
  }
  const [ca, cb] = [CONSONANTS[a], CONSONANTS[b]];
  const near = ca && cb && (ca.manner === cb.manner || NEAR_MANNERS.has(`${ca.manner}/${cb.manner}`));
  if (!ca || !cb || !near) return indelCost(a) + indelCost(b);
  const distance = Math.abs(ca.place - cb.place);
  const place = distance === 0 ? 0 : distance === 1 ? 0.15 : 0.25;
  const manner = ca.manner === cb.manner ? 0 : 0.2;
  return 0.15 + place + manner + (ca.voiced === cb.voiced ? 0 : 0.15);
}

/** Cost of a phoneme said but not heard, or heard but not said. */
export function indelCost(phoneme: string): number {
  if (phoneme === 'AH' || phoneme === 'IH') return 0.35;
  if (VOWELS[phoneme]) return 0.5;
  if (phoneme === 'HH' || phoneme === 'W' || phoneme === 'Y') return 0.5;
  return 0.8;
}

/** Whether `phoneme` is an ARPAbet vowel. */
export function isVowel(phoneme: string): boolean {
  return VOWELS[phoneme] !== undefined;
}

/**
 * Weighted Levenshtein distance between phoneme sequences `a` and `b` (costs above); 0 when equal.
 * Symmetric; unknown symbols only match themselves.
 */
export function measurePhonemeDistance(a: readonly string[], b: readonly string[]): number {
  let previous = [0];
  for (let j = 1; j <= b.length; j++) previous.push(previous[j - 1]! + indelCost(b[j - 1]!));
  for (let i = 1; i <= a.length; i++) {
    const current = [previous[0]! + indelCost(a[i - 1]!)];
    for (let j = 1; j <= b.length; j++) {
      current.push(
        Math.min(
          previous[j - 1]! + substitutionCost(a[i - 1]!, b[j - 1]!),
          previous[j]! + indelCost(a[i - 1]!),
          current[j - 1]! + indelCost(b[j - 1]!),
        ),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}
