/**
 * The fixed split of the shared audio's voices (docs/diarization.md, "Held-out split"): the built-in
 * diarizer's constants are calibrated on CALIBRATION_VOICES only (bench/quality/calibrate-speaker-count.ts)
 * and judged on meetings built from HELD_OUT_VOICES only (bench/quality/measure-meetings.ts). A voice is one
 * reader (one speaker id); every clip of that reader in ../shared/audio belongs to its voice, so no
 * recording of a held-out speaker is ever seen by the calibration.
 *
 * Chosen once, before any figure on it was looked at, to balance the two sets: English voices of
 * different sources on both sides (jfk, LibriSpeech 1089, HiFi-TTS 6097, FLEURS en-000 | LibriVox, FLEURS
 * en-001, en-002) and one FLEURS voice of each other language on each side (…-000 | …-001). HiFi-TTS 6097
 * (116 clips, the long recordings) is a calibration voice: the single-speaker negatives of the calibration
 * are mostly its clips. The voices that appear only as single recordings (ru_deepspeech_smoke, the two
 * channels of stereo_two_speakers) are held out. pyannote_sample and ami_debug_tst01 are real meetings whose
 * voices appear nowhere else; both were used to tune the diarizer, so their figures are in-sample.
 *
 * Caveat: the constants in estimate-speaker-count.ts and diarize-builtin.ts before this split were
 * calibrated on ALL the shared audio, held-out voices included; their held-out figure is therefore not
 * out-of-sample. Only constants recalibrated on CALIBRATION_VOICES give an honest held-out figure.
 */

/** Names of MEETING_VOICES (@transcribe/core/testing) whose recordings the calibration may use. */
export const CALIBRATION_VOICES = ['jfk', 'ls', 'hifi', 'en0', 'de0', 'es0', 'fr0', 'pt0'] as const;

/** Names of MEETING_VOICES that the calibration never sees; the diarizer is judged on them. */
export const HELD_OUT_VOICES = ['lv', 'en1', 'en2', 'de1', 'es1', 'fr1', 'pt1'] as const;

/** Held-out voices that exist only as one short recording each (used as single speakers, not in meetings). */
export const HELD_OUT_SINGLE_RECORDINGS = [
  'ru_deepspeech_smoke.wav',
  'stereo_two_speakers.wav#left',
  'stereo_two_speakers.wav#right',
] as const;

/** The voice sets as the bench names them. */
export type VoiceSet = 'calibration' | 'held-out';

/**
 * The voice (speaker id) of a clip of ../shared/audio, by its path under that folder, or undefined for a
 * recording of several voices (multispeaker/*, both channels of stereo_two_speakers.wav).
 * Voices: jfk, ls (LibriSpeech 1089), lv (LibriVox reader), hifi (HiFi-TTS 6097), FLEURS `<lang><n>`,
 * ru (ru_deepspeech_smoke), stereo-left / stereo-right (`stereo_two_speakers.wav#left|right`).
 */
export function voiceOfClip(clip: string): string | undefined {
  if (clip === 'jfk.wav') return 'jfk';
  if (clip.startsWith('librispeech-test-clean/1089-')) return 'ls';
  if (clip.startsWith('librivox-sense-and-sensibility/')) return 'lv';
  if (clip.startsWith('hifitts-6097/') || clip.startsWith('long_hifitts6097')) return 'hifi';
  const fleurs = /^fleurs\/fleurs-([a-z]{2})-00(\d)\.wav$/.exec(clip);
  if (fleurs) return `${fleurs[1]}${fleurs[2]}`;
  if (clip === 'ru_deepspeech_smoke.wav') return 'ru';
  if (clip === 'stereo_two_speakers.wav#left') return 'stereo-left';
  if (clip === 'stereo_two_speakers.wav#right') return 'stereo-right';
  return undefined;
}

/** Which set a voice belongs to; every voice of the shared audio is in exactly one. */
export function setOfVoice(voice: string): VoiceSet {
  if ((CALIBRATION_VOICES as readonly string[]).includes(voice)) return 'calibration';
  return 'held-out';
}

/** The set of a recording made of `clips` (paths under ../shared/audio), or 'mixed' when its voices span both sets. */
export function setOfClips(clips: readonly string[]): VoiceSet | 'mixed' | 'unknown' {
  const sets = new Set(clips.map((clip) => voiceOfClip(clip)).map((voice) => (voice === undefined ? 'unknown' : setOfVoice(voice))));
  if (sets.size === 1) return [...sets][0]!;
  return sets.has('unknown') ? 'unknown' : 'mixed';
}
