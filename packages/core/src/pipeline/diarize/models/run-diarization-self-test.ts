import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isAppError } from '../../../platform/errors/app-error.ts';
import { readWavLayout } from '../../decode/read-wav-layout.ts';
import { diarizeWithSherpa } from '../diarize-with-sherpa.ts';
import type { DiarizationModels } from '../locate-diarization-models.ts';
import { diarizationErrorRate } from '../scoring/diarization-error-rate.ts';
import { parseRttm } from '../scoring/parse-rttm.ts';

/** The two-speaker clip every neural diarization pair is run on before it is activated (self-test/SOURCE.md). */
export const DIARIZATION_SELF_TEST_WAV = fileURLToPath(new URL('./self-test/pyannote_sample.wav', import.meta.url));
/** Its reference turns (RTTM, two speakers). */
export const DIARIZATION_SELF_TEST_RTTM = fileURLToPath(new URL('./self-test/pyannote_sample.rttm', import.meta.url));

/** The number of speakers of the self-test clip, which the pair must find by itself (`speakers` null). */
export const DIARIZATION_SELF_TEST_SPEAKERS = 2;

/**
 * Highest DER (no collar, overlap counted, as pyannote publishes its figures) a pair may have on the
 * self-test clip and still be activated. The built-in diarizer scores 0.042 there with the 0.25 s collar
 * (bench/results/quality.md), and pyannote/speaker-diarization-3.1 publishes 11–22 % on whole benchmark
 * sets; a pair that misses 0.20 on 30 s of clean two-person speech is not a working speaker model
 * (random or mismatched weights put everything in one speaker, or scatter it).
 */
export const DIARIZATION_SELF_TEST_MAX_DER = 0.2;

/** What the diarization self-test found; stored in `.install.json` and shown by `npm run models -- list`. */
export interface DiarizationSelfTestResult {
  /** True when exactly DIARIZATION_SELF_TEST_SPEAKERS speakers were found with a DER of at most DIARIZATION_SELF_TEST_MAX_DER. */
  passed: boolean;
  /** The number of speakers found (count not given), or null when diarization failed. */
  speakers: number | null;
  /** DER against the reference, no collar, overlap counted, 0..∞ (false alarms can push it over 1); null when diarization failed. */
  der: number | null;
  /** Wall-clock time / audio duration, model loading included; null when diarization failed. */
  realTimeFactor: number | null;
  /** Seconds of audio diarized. */
  audioSeconds: number;
  /** The segmentation and embedding models' catalog names, as tested together. */
  pair: { segmentation: string; embedding: string };
  /** Why it failed, one line, or null when it passed. */
  reason: string | null;
  /** ISO 8601 time of the test. */
  testedAt: string;
}

/**
 * Runs the pair `models` (files anywhere: a staging folder or MODELS_DIR) on the self-test clip through
 * the diarizer the service uses (diarizeWithSherpa, its child process, the count left to sherpa-onnx's
 * clustering threshold) and scores the turns with diarizationErrorRate (no collar). Never throws for a
 * pair that fails to load or run: that is a failed result with the diarizer's message as `reason`.
 * @param names the pair's catalog names, recorded in the result.
 * @throws only for errors that are not the diarizer's (e.g. the clip missing from the checkout), and
 *   `signal.reason` when aborted.
 */
export async function runDiarizationSelfTest(
  models: DiarizationModels,
  names: { segmentation: string; embedding: string },
  options: { signal?: AbortSignal } = {},
): Promise<DiarizationSelfTestResult> {
  const reference = parseRttm(await readFile(DIARIZATION_SELF_TEST_RTTM, 'utf8'));
  const audioSeconds = (await readWavLayout(DIARIZATION_SELF_TEST_WAV)).durationSeconds;
  const base = { audioSeconds, pair: { ...names }, testedAt: new Date().toISOString() };
  const started = performance.now();
  let turns;
  try {
    turns = await diarizeWithSherpa({ wavPath: DIARIZATION_SELF_TEST_WAV, models, speakers: null, signal: options.signal });
  } catch (error) {
    options.signal?.throwIfAborted();
    if (!isAppError(error)) throw error;
    const reason = `diarization failed: ${error.message.split('\n')[0]}`;
    return { ...base, passed: false, speakers: null, der: null, realTimeFactor: null, reason };
  }
  const realTimeFactor = (performance.now() - started) / 1000 / audioSeconds;
  const speakers = new Set(turns.map((turn) => turn.speaker)).size;
  const { der } = diarizationErrorRate(reference, turns);
  let reason: string | null = null;
  if (speakers !== DIARIZATION_SELF_TEST_SPEAKERS) reason = `found ${speakers} speakers where the clip has ${DIARIZATION_SELF_TEST_SPEAKERS}`;
  else if (der > DIARIZATION_SELF_TEST_MAX_DER) reason = `DER ${der.toFixed(3)} is over ${DIARIZATION_SELF_TEST_MAX_DER}`;
  return { ...base, passed: reason === null, speakers, der, realTimeFactor, reason };
}

/** One line for messages: `2 speakers, DER 0.081, real-time factor 0.05` (or why it failed to run). */
export function describeDiarizationSelfTest(result: DiarizationSelfTestResult): string {
  if (result.der === null) return result.reason ?? 'no result';
  return `${result.speakers} speaker${result.speakers === 1 ? '' : 's'}, DER ${result.der.toFixed(3)}, real-time factor ${result.realTimeFactor?.toFixed(3)}`;
}
