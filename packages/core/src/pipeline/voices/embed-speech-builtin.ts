import { extractSpeechFeatures } from '../diarize/extract-speech-features.ts';
import type { TimeRegion } from '../diarize/speaker-turn.ts';
import { BUILTIN_EMBEDDING_KIND, unitVector, type SpeechEmbedding } from './voice-embedding.ts';

/**
 * Where the built-in voice statistics are centred and how each is scaled before the cosine is taken:
 * the mean and standard deviation, over the 15 voices of the calibration split of the shared clips (one
 * vector per speaker: FLEURS de/es/fr/pt/en 000–001, ru_deepspeech_smoke, pyannote_sample's two speakers,
 * stereo_two_speakers' two channels; none of them in the evaluation split; bench/speakers.ts `--calibrate`
 * prints them again), of each of the 38 statistics below. Centring on a population mean is what makes the cosine of
 * two voices' statistics say how they differ from an average voice rather than that both are speech.
 */
const CENTRE = [
  122.3908, -5.5019, 20.4076, -16.7754, -18.2612, -17.5325, -14.5889, -12.241, -5.2599, -13.8241, -5.8111, -12.0192, -4.3242, -10.7792,
  -7.9624, -2.9798, -2.6775, -5.8508, 1.0668, 61.1268, 36.6291, 30.7416, 23.6067, 23.7219, 19.2457, 16.3898, 15.8142, 14.6508, 12.7646,
  11.8323, 12.1163, 10.7921, 9.9456, 10.0827, 9.5491, 9.03, 8.8391, 9.0636,
];
const SCALE = [
  41.8466, 52.368, 7.1161, 15.9416, 21.2331, 11.5909, 15.9915, 7.2445, 8.7412, 10.1072, 5.7226, 7.5054, 7.0362, 4.928, 8.2092, 4.9921,
  3.8657, 2.5778, 4.741, 14.6176, 5.4528, 4.4931, 4.1964, 3.3644, 2.545, 2.1919, 2.1833, 1.6887, 1.183, 1.4316, 1.7934, 0.9514, 1.085,
  1.1927, 1.4509, 1.233, 1.5224, 1.9715,
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
