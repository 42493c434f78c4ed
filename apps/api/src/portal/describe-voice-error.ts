import { EXCERPT_GONE, isAppError, NO_EXCERPT_KEPT, RECORDING_GONE, RECORDING_NOT_KEPT } from '@transcribe/core';
import type { PortalTranslate } from './portal-i18n.ts';

/**
 * The refusals of the portal's speaker and voice forms (renaming a speaker, "remember this voice", a
 * voice's excerpt) in the reader's language: the core's English details (create-voice.ts,
 * measure-voice-sample.ts, rename-prediction-speaker.ts, remember-prediction-voice.ts,
 * cut-voice-excerpt.ts) recognised by their constants, params and wording, each with a catalog key
 * `portal-voice-error-…`; null for any other error (the portal's general wording applies).
 */
export function describeVoiceError(error: unknown, t: PortalTranslate): string | null {
  if (!isAppError(error)) return null;
  const { message: detail, param } = error;
  if (detail === RECORDING_NOT_KEPT) return t('portal-voice-error-not-kept');
  if (detail === RECORDING_GONE) return t('portal-voice-error-gone');
  if (detail === NO_EXCERPT_KEPT) return t('portal-voices-excerpt-none');
  if (detail === EXCERPT_GONE) return t('portal-voices-excerpt-gone');
  if (error.code === 'not_found') {
    if (detail.startsWith('No voice with id')) return t('portal-voice-error-no-voice');
    if (detail.startsWith('This transcript has no')) return t('portal-voice-error-no-speaker');
    return null;
  }
  const full = /already holds (\d+) voices/.exec(detail);
  if (full) return t('portal-voice-error-limit', { most: Number(full[1]) });
  const taken = /^A voice named ("(?:[^"\\]|\\.)*") already exists/.exec(detail);
  if (taken) return t('portal-voice-error-taken', { name: JSON.parse(taken[1]!) as string });
  if (param === 'samples') {
    if (/holds no speech/.test(detail)) return t('portal-voice-error-no-speech');
    const voices = /holds (\d+) voices/.exec(detail);
    if (voices) return t('portal-voice-error-two-voices', { count: Number(voices[1]) });
    if (/too long/.test(detail)) return t('portal-voice-error-too-long');
    if (/too short|too little speech/.test(detail)) return t('portal-voice-error-too-short');
  }
  if (param === 'name') return t(/already called/.test(detail) ? 'portal-voice-error-name-used' : 'portal-voice-error-name');
  return null;
}
