import { describe, expect, it } from 'vitest';
import { indelCost, measurePhonemeDistance, substitutionCost } from './measure-phoneme-distance.ts';

const ph = (text: string) => text.split(' ');

describe('measurePhonemeDistance', () => {
  it('should be 0 for equal sequences and symmetric otherwise', () => {
    expect(measurePhonemeDistance(ph('D AE SH W UH D'), ph('D AE SH W UH D'))).toBe(0);
    const a = ph('G EH S W UH D');
    const b = ph('D AE SH W UH D');
    expect(measurePhonemeDistance(a, b)).toBeCloseTo(measurePhonemeDistance(b, a), 10);
  });

  it('should add up near substitutions (guess would → Dashwood: G/D, EH/AE, S/SH)', () => {
    const expected = substitutionCost('G', 'D') + substitutionCost('EH', 'AE') + substitutionCost('S', 'SH');
    expect(measurePhonemeDistance(ph('G EH S W UH D'), ph('D AE SH W UH D'))).toBeCloseTo(expected, 10);
    expect(expected).toBeLessThan(1);
  });

  it('should count insertions and deletions at their cost', () => {
    expect(measurePhonemeDistance([], ph('AH N'))).toBeCloseTo(indelCost('AH') + indelCost('N'), 10);
    expect(measurePhonemeDistance(ph('W EH L B IY'), ph('W EH L AH B IY'))).toBeCloseTo(indelCost('AH'), 10);
  });
});

describe('substitutionCost', () => {
  it('should make near sounds cheap and other manners as dear as dropping and adding', () => {
    expect(substitutionCost('S', 'Z')).toBeLessThan(0.5); // voicing only
    expect(substitutionCost('S', 'SH')).toBeLessThan(0.5); // next place
    expect(substitutionCost('IY', 'IH')).toBeLessThan(substitutionCost('IY', 'AA'));
    expect(substitutionCost('TH', 'L')).toBe(indelCost('TH') + indelCost('L')); // fricative vs liquid
    expect(substitutionCost('AA', 'K')).toBe(indelCost('AA') + indelCost('K'));
  });

  it('should make dropping a reduced vowel cheaper than a full vowel, and both cheaper than a consonant', () => {
    expect(indelCost('AH')).toBeLessThan(indelCost('AA'));
    expect(indelCost('AA')).toBeLessThan(indelCost('K'));
  });
});
