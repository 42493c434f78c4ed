import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { clusterWindows, type WindowDendrogram } from './cluster-windows.ts';
import { cutLargeClusters } from './cut-large-clusters.ts';
import { cutWindows, embedWindows, spreadWindowLabels, type FrameWindow } from './embed-windows.ts';
import {
  chooseSpeakerCount,
  countSpeakersApart,
  estimateSpeakerCount,
  loudnessSpread,
  ROOM_C0_SPREAD,
  ROOM_THRESHOLDS,
  scoreSpeakerCounts,
  type SpeakerCountScore,
} from './estimate-speaker-count.ts';
import { COARSE_HOP_SAMPLES, extractSpeechFeatures, refineSpeechFeatures, type SpeechFeatures } from './extract-speech-features.ts';
import { addQuietSpeech } from './add-quiet-speech.ts';
import { fillShortPauses } from './fill-short-pauses.ts';
import { framesToTurns } from './frames-to-turns.ts';
import { resegmentFrames } from './resegment-frames.ts';
import { speakerLabel, type SpeakerTurn, type TimeRegion } from './speaker-turn.ts';
import { standardizeFeatures, type FrameMatrix } from './standardize-features.ts';
import { trainBackgroundModel, type BackgroundModel } from './train-background-model.ts';

export interface BuiltinDiarizationInput {
  /** 16 kHz mono 16-bit WAV file. */
  wavPath: string;
  /** Speech intervals from detectSpeech, seconds, sorted. */
  speech: readonly TimeRegion[];
  /**
   * Quiet speech found by the transcript VAD's own pass (detectSpeechLevels, onset QUIET_SPEECH_ONSET),
   * labelled too where it lies between the `speech` intervals (addQuietSpeech); [] for none.
   */
  quietSpeech: readonly TimeRegion[];
  /** The largest number of speakers to label (fewer when some would have under 2 s of speech), or null to estimate it (1 to 8). */
  speakers: number | null;
  signal?: AbortSignal;
}

const BACKGROUND_COMPONENTS = 8;
/** The most speakers the estimate looks for (each count up to it costs one resegmentation). */
const MAX_ESTIMATED_SPEAKERS = 8;
const WINDOWS_PER_SLICE = 1000;
/**
 * The screen's second question, when no split in two passes: does a cut into MANY_SPEAKERS_CUT clusters
 * hold at least MANY_SPEAKERS_APART speakers apart (countSpeakersApart)? Calibrated on the speaker-count
 * set and the built meetings (docs/diarization.md, "Many voices"): single speakers hold at most 2 apart in
 * such a cut, meetings of 4–8 voices whose split in two fails hold 3–6.
 */
const MANY_SPEAKERS_CUT = 6;
const MANY_SPEAKERS_APART = 3;

/**
 * The built-in diarizer, which needs no downloaded model. Steps (docs/diarization.md): the speech is
 * `speech` plus the quiet speech the VAD missed between its intervals (addQuietSpeech: the parts of
 * `quietSpeech`, the same VAD pass read at onset 0.2, that lie in the gaps); MFCCs of that speech (meyda's, computed by compute-mfcc.ts); 1 s windows embedded
 * as Fisher vectors of an 8-Gaussian model of the recording itself; agglomerative clustering
 * (ml-hclust); frame-level resegmentation with one full-covariance Gaussian per speaker; a speaker's
 * pauses under 0.58 s filled (fillShortPauses, pyannote 2.1's `min_duration_off`).
 * With `speakers` = n the clustering is cut as pyannote.audio does for a given `num_clusters`
 * (cutLargeClusters: at most n speakers of at least 2 s of speech each, fewer when the recording has
 * less); without it a screen on 32 ms frames first asks whether a second speaker is there at all
 * (mayHoldSecondSpeaker: one speaker ends the work at about half the cost), and only then does
 * estimateSpeakerCount pick 1…8 on the 16 ms frames (the 2-speaker split decides one or more; among 2…8,
 * the count of highest BIC whose every pair of speakers passes). A far-field recording (loudness spread
 * under ROOM_C0_SPREAD) is counted by the screen alone: the speakers its cut into 6 holds apart at
 * ROOM_THRESHOLDS, resegmented on the 16 ms frames (docs/diarization.md, "Far-field count"). CPU: ~0.03 s per minute of one reader with the
 * count estimated (~2 s per hour; bench/vad-diarization-cpu.ts; the screen costs ~0.04 s per minute
 * more when it finds a second speaker, its MFCCs reused), in slices between which the
 * event loop runs. Memory: ~250 bytes per frame of speech held (~55 MB per hour) plus the clustering's
 * garbage.
 * @param input.speech sorted speech intervals in seconds (the transcript's VAD); not modified.
 * @returns turns in seconds (inside `speech` or the quiet speech found between its intervals, pauses of
 *   one speaker under 0.58 s filled), sorted, labelled `SPEAKER_1`, … by first appearance; [] without
 *   speech; one speaker when `speakers` is 1 or there is too little speech to cluster.
 * @throws AppError from extractSpeechFeatures (`media_unreadable`, `recognition_failed`);
 *   `signal.reason` when aborted.
 */
export async function diarizeBuiltin(input: BuiltinDiarizationInput): Promise<SpeakerTurn[]> {
  if (input.speech.length === 0 || input.speakers === 1) return oneSpeaker(input.speech);
  input = { ...input, speech: addQuietSpeech(input.speech, input.quietSpeech) };
  return fillShortPauses(await diarizeSpeech(input));
}

/** diarizeBuiltin on the speech with the quiet speech added (addQuietSpeech), before fillShortPauses. */
async function diarizeSpeech(input: BuiltinDiarizationInput): Promise<SpeakerTurn[]> {
  const screened = await speechFrames(input);
  if (screened === null) return oneSpeaker(input.speech);
  const { frames, times, regions, verdict, apart } = screened;
  const clustered = await clusterSpeech(frames, regions, input.signal);
  if (clustered === null) return oneSpeaker(input.speech);
  const { windows, embeddings, dendrogram } = clustered;
  if (input.speakers !== null) {
    const given = cutLargeClusters(dendrogram, windows, embeddings, frames.rows, input.speakers);
    if (given.count === 1) return oneSpeaker(input.speech);
    return framesToTurns(input.speech, times, regions, await resegmentFrames(frames, regions, given.labels, given.count, input.signal));
  }
  const initialLabels = (count: number) => spreadWindowLabels(windows, dendrogram.cut(count), frames.rows);
  if (verdict === 'room') {
    // A far-field recording: the count is the screen's (speakers apart in its cut into 6), resegmented as is.
    const count = Math.min(apart, windows.length);
    if (count < 2) return oneSpeaker(input.speech);
    return framesToTurns(input.speech, times, regions, await resegmentFrames(frames, regions, initialLabels(count), count, input.signal));
  }
  const estimated = await estimateSpeakerCount(
    frames,
    regions,
    initialLabels,
    Math.min(MAX_ESTIMATED_SPEAKERS, windows.length),
    input.signal,
    { pastFailedSplit: verdict !== 'one' },
  );
  if (estimated.count === 1 || estimated.labels === undefined) return oneSpeaker(input.speech);
  return framesToTurns(input.speech, times, regions, estimated.labels);
}

/**
 * What the one-speaker screen decides: `one` ends the diarization with one speaker; `split` when the
 * 2-speaker split passes; `many` when it does not but a cut into MANY_SPEAKERS_CUT clusters holds
 * MANY_SPEAKERS_APART or more speakers apart. For either of these two the 16 ms estimate runs, and
 * looks past its own split in two if that fails (SpeakerCountOptions.pastFailedSplit). `room`: a
 * far-field recording (loudness spread under ROOM_C0_SPREAD) whose cut into MANY_SPEAKERS_CUT clusters
 * holds two or more speakers apart at ROOM_THRESHOLDS; that number is the count, resegmented on the 16 ms
 * frames without further choice (a far-field recording holding one apart gets `one`).
 */
export type ScreenVerdict = 'one' | 'split' | 'many' | 'room';

/** The screen's verdict with the scores behind it (bench/quality/calibrate-speaker-count.ts prints them). */
export interface SpeakerScreen {
  verdict: ScreenVerdict;
  /** The 2-speaker scores on 32 ms frames; undefined under two windows of speech. */
  split?: SpeakerCountScore;
  /**
   * Speakers apart in the cut into MANY_SPEAKERS_CUT clusters (countSpeakersApart; at ROOM_THRESHOLDS for a
   * far-field recording); 0 when not asked (the split passed, or under two windows).
   */
  apart: number;
  /** The loudness spread of the speech (loudnessSpread, c0 units); under ROOM_C0_SPREAD the recording is taken as far-field. */
  loudnessSpread: number;
}

/**
 * The one-speaker screen, run before the count is estimated: the estimate's first step (does a second
 * speaker pass the thresholds of estimate-speaker-count.ts?) on 32 ms frames every 32 ms, every other
 * frame of the 16 ms grid, which costs about half as much (MFCCs, embeddings and resegmentation scale
 * with the frames; rules in seconds follow FrameMatrix.framesPerSecond). When that split fails, a
 * second, cheaper question (cluster statistics only, no resegmentation): do the window clusters of a
 * cut into 6 hold three or more speakers apart? Meetings of many voices fail the split in two, because
 * each half mixes several voices. When neither finds more than one speaker the recording gets one
 * speaker without the 16 ms pass; otherwise the full estimate runs on the same 16 ms frames
 * (diarizeBuiltin keeps the screen's raw MFCCs, which are the even frames, and computes only the odd
 * ones: refineSpeechFeatures). Safe only as long as the screen finds more than one speaker wherever the
 * 16 ms estimate does: checked on every recording of the speaker-count set
 * (bench/quality/calibrate-speaker-count.ts, columns "screen"; docs/diarization.md "One-speaker screen").
 * @param input its `speech` already holds the quiet speech (diarizeBuiltin).
 * @returns false when the recording has one speaker by the 32 ms screen (or too little speech to split).
 * @throws as diarizeBuiltin.
 */
export async function mayHoldSecondSpeaker(input: Pick<BuiltinDiarizationInput, 'wavPath' | 'speech' | 'signal'>): Promise<boolean> {
  return (await screenSpeakers(input)).verdict !== 'one';
}

/**
 * The screen of mayHoldSecondSpeaker with its scores.
 * @throws as diarizeBuiltin.
 */
export async function screenSpeakers(input: Pick<BuiltinDiarizationInput, 'wavPath' | 'speech' | 'signal'>): Promise<SpeakerScreen> {
  return screenFeatures(await extractSpeechFeatures(input.wavPath, input.speech, input.signal, COARSE_HOP_SAMPLES), input.signal);
}

/** screenSpeakers on features already computed (any grid; FrameMatrix.framesPerSecond follows it). */
async function screenFeatures(features: SpeechFeatures, signal?: AbortSignal): Promise<SpeakerScreen> {
  const spread = loudnessSpread(features);
  const frames = standardizeFeatures(features);
  const clustered = await clusterSpeech(frames, features.regions, signal);
  if (clustered === null) return { verdict: 'one', apart: 0, loudnessSpread: spread };
  const { windows, dendrogram } = clustered;
  const cut = Math.min(MANY_SPEAKERS_CUT, windows.length);
  const cutLabels = () => spreadWindowLabels(windows, dendrogram.cut(cut), frames.rows);
  if (spread < ROOM_C0_SPREAD) {
    // Far-field (docs/diarization.md, "Far-field count"): the split in two and its thresholds are not asked.
    const apart = countSpeakersApart(frames, cutLabels(), cut, ROOM_THRESHOLDS);
    return { verdict: apart >= 2 ? 'room' : 'one', apart, loudnessSpread: spread };
  }
  const labels = spreadWindowLabels(windows, dendrogram.cut(2), frames.rows);
  const [split] = await scoreSpeakerCounts(frames, features.regions, () => labels, 2, signal);
  if (split !== undefined && chooseSpeakerCount([split]) !== undefined)
    return { verdict: 'split', split, apart: 0, loudnessSpread: spread };
  const apart = countSpeakersApart(frames, cutLabels(), cut);
  return { verdict: apart >= MANY_SPEAKERS_APART ? 'many' : 'one', ...(split ? { split } : {}), apart, loudnessSpread: spread };
}

/**
 * Steps 2–4 of docs/diarization.md on standardised frames: 1 s windows every 0.5 s (at the frames' own
 * rate), the background model, the windows' Fisher vectors and their dendrogram, with the event loop in
 * between; null when there are under two windows.
 * @throws `signal.reason` when aborted.
 */
async function clusterSpeech(
  frames: FrameMatrix,
  regions: Uint32Array,
  signal?: AbortSignal,
): Promise<{ windows: FrameWindow[]; embeddings: Float64Array[]; dendrogram: WindowDendrogram } | null> {
  const windows = cutWindows(regions, frames.framesPerSecond);
  if (windows.length < 2) return null;
  const model = await trainBackgroundModel(frames, BACKGROUND_COMPONENTS, signal);
  await pause(signal);
  const embeddings = await embedInSlices(windows, frames, model, signal);
  const dendrogram = clusterWindows(embeddings);
  await pause(signal);
  return { windows, embeddings, dendrogram };
}

/**
 * The standardised 16 ms frames with their times, regions and the screen's verdict (`split` when the
 * count is given: no screen runs), or null when the count is to be estimated and the one-speaker screen
 * finds one speaker. The raw MFCCs are not kept (4 bytes × 20 per frame).
 */
async function speechFrames(input: BuiltinDiarizationInput): Promise<ScreenedFrames | null> {
  if (input.speakers !== null) return standardized(await extractSpeechFeatures(input.wavPath, input.speech, input.signal), 'split', 0);
  const coarse = await extractSpeechFeatures(input.wavPath, input.speech, input.signal, COARSE_HOP_SAMPLES);
  const { verdict, apart } = await screenFeatures(coarse, input.signal);
  if (verdict === 'one') return null;
  // The screen's frames are the 16 ms grid's even frames: only the odd ones are computed now.
  return standardized(await refineSpeechFeatures(input.wavPath, input.speech, coarse, input.signal), verdict, apart);
}

/** The 16 ms frames with the screen's verdict and speakers apart (SpeakerScreen). */
interface ScreenedFrames {
  frames: FrameMatrix;
  times: Float64Array;
  regions: Uint32Array;
  verdict: ScreenVerdict;
  apart: number;
}

function standardized(features: SpeechFeatures, verdict: ScreenVerdict, apart: number): ScreenedFrames {
  return { frames: standardizeFeatures(features), times: features.times, regions: features.regions, verdict, apart };
}

/** embedWindows a slice of windows at a time with the event loop in between (~0.1 s of work each; same vectors). */
async function embedInSlices(
  windows: readonly FrameWindow[],
  frames: FrameMatrix,
  model: BackgroundModel,
  signal?: AbortSignal,
): Promise<Float64Array[]> {
  const vectors: Float64Array[] = [];
  for (let at = 0; at < windows.length; at += WINDOWS_PER_SLICE) {
    vectors.push(...embedWindows(windows.slice(at, at + WINDOWS_PER_SLICE), frames, model));
    await pause(signal);
  }
  return vectors;
}

function oneSpeaker(speech: readonly TimeRegion[]): SpeakerTurn[] {
  return speech.map((region) => ({ start: region.start, end: region.end, speaker: speakerLabel(0) }));
}

async function pause(signal?: AbortSignal): Promise<void> {
  await yieldToEventLoop();
  signal?.throwIfAborted();
}
