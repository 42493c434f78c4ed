import { describe, expect, it } from 'vitest';
import { AppError, EXCERPT_GONE, NO_EXCERPT_KEPT, RECORDING_GONE, RECORDING_NOT_KEPT } from '@transcribe/core';
import { describeVoiceError } from './describe-voice-error.ts';
import { PORTAL_LOCALES, portalTranslator } from './portal-i18n.ts';

/** The core's refusals as the speaker and voice forms meet them (their English wording is the core's). */
const REFUSALS = [
  new AppError('invalid_input', RECORDING_NOT_KEPT, { param: 'recording' }),
  new AppError('invalid_input', RECORDING_GONE, { param: 'recording' }),
  new AppError('not_found', NO_EXCERPT_KEPT),
  new AppError('not_found', EXCERPT_GONE),
  new AppError('not_found', 'No voice with id voice_x exists for this account.'),
  new AppError('not_found', 'This transcript has no speaker "SPEAKER_9".'),
  new AppError(
    'conflict',
    'This account already holds 50 voices, the most allowed; delete one (DELETE /v1/voices/{id}) before enrolling another.',
    { param: 'name' },
  ),
  new AppError(
    'conflict',
    'A voice named "Ann \\"A\\" Lee" already exists; add samples to it (POST /v1/voices/{id}/samples) or choose another name.',
    { param: 'name' },
  ),
  new AppError('invalid_input', 'The sample holds no speech: record the person speaking for a few seconds.', { param: 'samples' }),
  new AppError('invalid_input', 'The sample holds 2 voices: a sample must hold one speaker only.', { param: 'samples' }),
  new AppError('invalid_input', 'The sample is too short: 1.0 s; a sample must last 2–30 s.', { param: 'samples' }),
  new AppError('invalid_input', "The sample is too long: 31.0 s; a sample must last 2–30 s (cut out one speaker's part).", {
    param: 'samples',
  }),
  new AppError('invalid_input', 'name "SPEAKER_2" is how unnamed speakers are labelled; choose another name.', { param: 'name' }),
  new AppError('invalid_input', 'Another speaker of this transcript is already called "John"; choose another name.', { param: 'name' }),
];

describe('the speaker and voice refusals in the portal’s words', () => {
  it('should tell every refusal in every portal language, from its catalog, never as a bare key', () => {
    for (const locale of PORTAL_LOCALES) {
      const t = portalTranslator(locale);
      const texts = REFUSALS.map((error) => describeVoiceError(error, t));
      for (const text of texts) {
        expect(text).not.toBeNull();
        expect(text).not.toMatch(/^portal-/);
      }
      expect(new Set(texts).size).toBe(REFUSALS.length);
    }
  });

  it('should carry the numbers and names of the refusal', () => {
    const en = portalTranslator('en');
    const ru = portalTranslator('ru');
    expect(describeVoiceError(REFUSALS[6], en)).toContain('You already have 50 voices');
    expect(describeVoiceError(REFUSALS[6], ru)).toContain('У вас уже 50 голосов');
    expect(describeVoiceError(REFUSALS[7], en)).toContain('You already have a voice named Ann "A" Lee.');
    expect(describeVoiceError(REFUSALS[9], ru)).toContain('голоса: 2');
  });

  it('should leave other errors to the portal’s general wording', () => {
    expect(
      describeVoiceError(new AppError('invalid_input', 'language must be a code', { param: 'language' }), portalTranslator('en')),
    ).toBeNull();
    expect(describeVoiceError(new Error('boom'), portalTranslator('en'))).toBeNull();
  });
});
