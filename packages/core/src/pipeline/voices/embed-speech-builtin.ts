import { extractSpeechFeatures } from '../diarize/extract-speech-features.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';
import { BUILTIN_EMBEDDING_KIND, unitVector, type SpeechEmbedding } from './voice-embedding.ts';

/**
 * Where the built-in voice statistics are centred and how each is scaled before the cosine is taken:
 * the mean and standard deviation, over the calibration split of the shared clips (HiFi-TTS 6097's first
 * 30 clips, FLEURS de/es/fr/pt 000–001, ru_deepspeech_smoke; bench/speakers.ts `--calibrate` prints them
 * again), of each of the 38 statistics below. Centring on a population mean is what makes the cosine of
 * two voices' statistics say how they differ from an average voice rather than that both are speech.
 */
const CENTRE = [
  94.9541, 11.9716, 20.8131, -5.194, -17.6672, -18.9114, -13.7787, -16.6177, 3.6291, -8.6689, -8.7686, -9.0588, -7.5164, -11.4702, -11.3191,
  -7.4898, -5.2746, -9.1725, -2.55, 78.313, 36.7505, 32.383, 25.7153, 26.087, 20.2845, 17.2085, 18.3316, 16.4404, 12.9924, 13.3675, 12.288,
  11.5036, 11.2833, 10.7042, 10.1701, 8.8335, 9.0365, 8.5127,
];
const SCALE = [
  24.2449, 15.8597, 10.5683, 13.3413, 9.2825, 8.7057, 7.6856, 6.1917, 8.9711, 5.473, 4.9886, 5.4248, 5.7905, 4.9875, 5.7867, 4.0275, 3.9507,
  4.1211, 3.4634, 20.1169, 5.5291, 6.6259, 5.4647, 5.3426, 3.4556, 3.0082, 3.0774, 2.15, 1.9831, 2.3808, 1.812, 1.5553, 2.0296, 1.1593,
  1.594, 0.8973, 1.3326, 1.3131,
];

/** The statistics of the built-in voice embedding, for bench/speakers.ts's calibration. */
export const BUILTIN_STATISTICS = CENTRE.length;

/**
 * The built-in voice embedding of some speech, needing no model: the built-in diarizer's own features
 * (20 MFCCs as meyda defines them, 32 ms every 16 ms: extractSpeechFeatures), c0 (loudness) dropped, and
 * for each of the other 19 its mean and standard deviation over the speech frames, centred and scaled by
 * fixed population statistics (CENTRE, SCALE) and put to unit length. A long-term spectral summary:
 * it tells voices recorded in the same conditions apart and is easily fooled across microphones and
 * rooms (measured in bench/results/speakers.md). The diarizer's own Fisher vectors cannot serve here:
 * their background model is trained on each recording, so two recordings' vectors are not comparable.
 * @param speech the regions of `wavPath` (16 kHz mono 16-bit WAV) to use, seconds.
 * @returns the embedding (38 values) and the seconds of speech in `speech`; null when the regions hold
 *   under one feature frame.
 * @throws as extractSpeechFeatures (AppError `media_unreadable`, `recognition_failed`); `signal.reason` when aborted.
 */
export async function embedSpeechBuiltin(
  wavPath: string,
  speech: readonly TimeRegion[],
  signal?: AbortSignal,
): Promise<SpeechEmbedding | null> {
  const statistics = await measureVoiceStatistics(wavPath, speech, signal);
  if (statistics === null) return null;
  return { kind: BUILTIN_EMBEDDING_KIND, vector: unitVector(normalizeStatistics(statistics)), seconds: speechSeconds(speech) };
}

/**
 * The raw statistics behind embedSpeechBuiltin: the mean of each of MFCC c1…c19 over the speech frames,
 * then the standard deviation of each (38 values); null under two frames.
 * @throws as embedSpeechBuiltin.
 */
export async function measureVoiceStatistics(
  wavPath: string,
  speech: readonly TimeRegion[],
  signal?: AbortSignal,
): Promise<Float64Array | null> {
  const features = await extractSpeechFeatures(wavPath, speech, signal);
  const rows = features.times.length;
  if (rows < 2) return null;
  const d = features.dimension - 1;
  const mean = new Float64Array(d);
  const square = new Float64Array(d);
  for (let i = 0; i < rows; i += 1) {
    for (let k = 0; k < d; k += 1) {
      const x = features.values[i * features.dimension + k + 1]!;
      mean[k]! += x;
      square[k]! += x * x;
    }
  }
  const statistics = new Float64Array(2 * d);
  for (let k = 0; k < d; k += 1) {
    const m = mean[k]! / rows;
    statistics[k] = m;
    statistics[d + k] = Math.sqrt(Math.max(0, square[k]! / rows - m * m));
  }
  return statistics;
}

/** The raw statistics (mean and standard deviation of c1…c19) centred and scaled by CENTRE and SCALE. */
function normalizeStatistics(statistics: Float64Array): Float64Array {
  return statistics.map((value, k) => (k < CENTRE.length ? (value - CENTRE[k]!) / SCALE[k]! : 0));
}

/** Seconds covered by `regions` (assumed not to overlap). */
export function speechSeconds(regions: readonly TimeRegion[]): number {
  return regions.reduce((sum, region) => sum + Math.max(0, region.end - region.start), 0);
}
