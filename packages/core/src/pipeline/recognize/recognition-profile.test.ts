import { describe, expect, it } from 'vitest';
import { DOMAINS, EFFICIENCIES } from '../../contract/validation/prediction-input.ts';
import { pocketsphinxBeamArgs, resolveRecognitionProfile } from './recognition-profile.ts';

describe('resolveRecognitionProfile', () => {
  const general = resolveRecognitionProfile('general');

  it('should give auto and null the general profile', () => {
    expect(resolveRecognitionProfile('auto')).toEqual(general);
    expect(resolveRecognitionProfile(null)).toEqual(general);
  });

  it.each(DOMAINS.filter((d) => d !== 'auto' && d !== 'general'))(
    'should give %s a profile that differs from general (no value accepted and ignored)',
    (domain) => {
      expect(resolveRecognitionProfile(domain)).not.toEqual(general);
    },
  );

  it('should band-limit telephonic audio, turn off VAD gating for songs and keep raw output for experimental', () => {
    expect(resolveRecognitionProfile('telephonic').audioFilter).toBe('highpass=f=300,lowpass=f=3400');
    expect(resolveRecognitionProfile('song').gateToSpeech).toBe(false);
    expect(resolveRecognitionProfile('experimental').collapseRepeats).toBe(false);
    expect(resolveRecognitionProfile('meeting').diarization).toBe('on');
  });
});

describe('pocketsphinxBeamArgs', () => {
  it('should give each efficiency its own beam widths, balanced the decoder defaults', () => {
    const args = EFFICIENCIES.map((e) => pocketsphinxBeamArgs(e).join(' '));
    expect(new Set(args).size).toBe(3);
    expect(pocketsphinxBeamArgs('balanced')).toEqual([]);
    expect(pocketsphinxBeamArgs(null)).toEqual([]);
    expect(pocketsphinxBeamArgs('fast')).toContain('-beam');
  });
});
