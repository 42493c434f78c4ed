import type { Domain, Efficiency } from '../../contract/validation/prediction-input.ts';

/**
 * How the pipeline treats a recording of a given `domain` (spec 2.2: validated before download and
 * passed to recognition). Every value has a visible effect; the table is in docs/recognition.md.
 */
export interface RecognitionProfile {
  /** Silero VAD settings: speech probability threshold and the shortest silence / speech, seconds. */
  vad: { threshold: number; minSilenceSeconds: number; minSpeechSeconds: number };
  /** false: the whole recording is recognised, not only VAD speech (music: VAD misses sung words). */
  gateToSpeech: boolean;
  /** false: repeated phrases are kept as the engine gave them (raw output). */
  collapseRepeats: boolean;
  /** ffmpeg filter applied when decoding, e.g. the telephone band (300–3400 Hz), or null. */
  audioFilter: string | null;
  /** Diarization: `on` even for short recordings, `auto` when more than one speaker is possible. */
  diarization: 'auto' | 'on';
}

const GENERAL: RecognitionProfile = {
  vad: { threshold: 0.5, minSilenceSeconds: 0.5, minSpeechSeconds: 0.25 },
  gateToSpeech: true,
  collapseRepeats: true,
  audioFilter: null,
  diarization: 'auto',
};

const BY_DOMAIN: Record<Domain, Partial<RecognitionProfile>> = {
  auto: {},
  general: {},
  telephonic: { audioFilter: 'highpass=f=300,lowpass=f=3400', vad: { threshold: 0.4, minSilenceSeconds: 0.4, minSpeechSeconds: 0.2 } },
  meeting: { diarization: 'on', vad: { threshold: 0.45, minSilenceSeconds: 0.3, minSpeechSeconds: 0.2 } },
  surveillance: { vad: { threshold: 0.3, minSilenceSeconds: 0.6, minSpeechSeconds: 0.15 } },
  song: { gateToSpeech: false },
  studio: { vad: { threshold: 0.6, minSilenceSeconds: 0.5, minSpeechSeconds: 0.25 } },
  news: { vad: { threshold: 0.5, minSilenceSeconds: 0.3, minSpeechSeconds: 0.25 } },
  experimental: { collapseRepeats: false },
};

/** The profile of a domain; null and `auto` use the general profile. */
export function resolveRecognitionProfile(domain: Domain | null | undefined): RecognitionProfile {
  return { ...GENERAL, ...(domain ? BY_DOMAIN[domain] : {}) };
}

/**
 * PocketSphinx beam widths for `efficiency` (smaller beams prune more: faster, less accurate).
 * `balanced` and null keep the decoder's defaults (1e-48 / 7e-29 / 1e-48).
 */
export function pocketsphinxBeamArgs(efficiency: Efficiency | null): string[] {
  if (efficiency === 'fast') return ['-beam', '1e-30', '-wbeam', '1e-20', '-pbeam', '1e-30', '-maxhmmpf', '3000'];
  if (efficiency === 'accurate') return ['-beam', '1e-60', '-wbeam', '1e-40', '-pbeam', '1e-60'];
  return [];
}
