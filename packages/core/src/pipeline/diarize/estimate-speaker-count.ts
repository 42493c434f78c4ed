import { FRAMES_PER_SECOND } from './extract-speech-features.ts';
import { speakerPairScores, weakestPair } from './measure-likelihood-gain.ts';
import { resegmentFrames } from './resegment-frames.ts';
import type { FrameMatrix } from './standardize-features.ts';

/**
 * Two resegmented clusters count as different speakers when both scores reach their threshold: their mean
 * standardised MFCCs lie SPEAKER_SEPARATION_THRESHOLD pooled standard deviations apart, and two
 * full-covariance Gaussians explain their frames at least SPEAKER_GAIN_THRESHOLD nats per frame better than
 * one (the data term of ΔBIC). Calibrated on all the shared audio (docs/diarization.md, "Speaker-count
 * measurements"), before the voice split existed; judged since on held-out voices (bench/quality/voice-split.ts,
 * bench/results/quality.md). Recalibrate only on the calibration voices: bench/quality/calibrate-speaker-count.ts.
 */
export const SPEAKER_SEPARATION_THRESHOLD = 1.8;
export const SPEAKER_GAIN_THRESHOLD = 0.8;
/**
 * Far-field recordings (the screen's `room` verdict, diarize-builtin.ts): the loudness spread
 * (loudnessSpread, c0 units) under which a recording is taken as recorded by a room microphone, and the
 * pair thresholds its speakers are counted apart with (countSpeakersApart on the screen's cut into 6).
 * Calibrated on the calibration voices only (bench/quality/compare-count-rules.ts; docs/diarization.md,
 * "Far-field count"), with the simulated rooms of the bench (makeFarField): its far-field calibration
 * meetings and single speakers have a spread of 45–98, the clean calibration meetings 195–450 (clean single
 * readers 89–490, none of which the rule splits). Any value from 100 to 190 counts the calibration sets
 * alike; the limit is `pyannote_sample` (a real two-person conversation, 137, which the far-field rule
 * gives 4 speakers), so 115, about the geometric middle of 98 and 137. Separation 1.3 is the lowest that
 * keeps every far-field calibration single speaker at 1 (at 1.2 HiFi-TTS 6097's clips and its first 30 s
 * split in two or three); gain 0.65 is the middle of 0.6–0.7, which count the calibration rooms alike.
 * Not a detector of real rooms: the AMI clip `ami_debug_tst01` has a spread of 182 (knocks and rumble).
 */
export const ROOM_C0_SPREAD = 115;
export const ROOM_SEPARATION_THRESHOLD = 1.3;
export const ROOM_GAIN_THRESHOLD = 0.65;

/** The pair thresholds two clusters must both reach to count as different speakers. */
export interface PairThresholds {
  /** Pooled standard deviations between the clusters' mean frames. */
  separation: number;
  /** Nats per frame (speakerPairScores' gain). */
  gain: number;
}

/** The pair thresholds of close-talk recordings (SPEAKER_SEPARATION_THRESHOLD, SPEAKER_GAIN_THRESHOLD). */
export const CLOSE_TALK_THRESHOLDS: PairThresholds = { separation: SPEAKER_SEPARATION_THRESHOLD, gain: SPEAKER_GAIN_THRESHOLD };
/** The pair thresholds of far-field recordings (ROOM_SEPARATION_THRESHOLD, ROOM_GAIN_THRESHOLD). */
export const ROOM_THRESHOLDS: PairThresholds = { separation: ROOM_SEPARATION_THRESHOLD, gain: ROOM_GAIN_THRESHOLD };

/**
 * The spread of a recording's loudness over its speech: the standard deviation of raw c0 (the first MFCC,
 * meyda's log mel energy summed by the DCT, so ~2 × the sum of 40 log band energies) over the frames of
 * `features`. Reverberation and noise fill the dips between syllables and words, so a room microphone
 * gives a smaller spread than a close one: ~45–100 for the simulated far-field recordings of the bench
 * (RT60 ≈ 0.5 s, pink noise ~15 dB down), ~90–490 for the clean clips (docs/diarization.md, "Far-field
 * count"). A gain on the samples shifts c0 and leaves its spread as it is (but for meyda's log(x + 1) floor).
 * @param features raw MFCC frames (c0 first), any hop.
 * @returns c0 units; 0 for under two frames.
 */
export function loudnessSpread(features: { dimension: number; values: Float32Array; times: Float64Array }): number {
  const rows = features.times.length;
  if (rows < 2) return 0;
  let [sum, square] = [0, 0];
  for (let i = 0; i < rows; i += 1) {
    const c0 = features.values[i * features.dimension]!;
    sum += c0;
    square += c0 * c0;
  }
  const mean = sum / rows;
  return Math.sqrt(Math.max(0, square / rows - mean * mean));
}

/** When the count is estimated, every speaker needs this much speech. */
const MIN_ESTIMATED_SPEAKER_SECONDS = 3;
/**
 * Weight λ of the BIC penalty that picks among the counts of two or more speakers (chooseSpeakerCount).
 * λ = 1 is Schwarz's criterion; larger values penalise each extra speaker more, as speaker clustering with
 * ΔBIC does to absorb the frames' correlation (Chen & Gopalakrishnan 1998 tune λ on data). 1.5 is the
 * smallest value that keeps `pyannote_sample` (two similar voices in conversation) at 2 speakers, whose
 * third cluster of overlaps and turn changes would win below λ = 1.30 (docs/diarization.md,
 * "Choosing among two or more speakers").
 */
export const SPEAKER_COUNT_PENALTY_WEIGHT = 1.5;

/** The scores of one candidate count: its resegmented labels and their weakest pair of speakers. */
export interface SpeakerCountScore {
  count: number;
  /** Smallest separation between two speakers (pooled standard deviations); 0 when one has under 3 s. */
  separation: number;
  /** Smallest likelihood gain between two speakers (nats per frame); 0 when one has under 3 s. */
  gain: number;
  /** Gain per frame of one Gaussian per speaker over one for all (nats per frame); 0 when one has under 3 s. */
  totalGain: number;
  /** Number of frames scored (the speech's), for the BIC penalty. */
  frames: number;
  /** Values per frame (19 standardised MFCCs), for the BIC penalty's parameter count. */
  dimension: number;
  /** Speaker index of every frame after resegmentation. */
  labels: Int32Array;
}

/**
 * Scores every count from 2 to `maxCount`: the window clustering cut into `count` clusters
 * (`labelsFor(count)`) is resegmented (resegmentFrames), then its weakest pair of speakers is measured.
 * @throws `signal.reason` when aborted.
 */
export async function scoreSpeakerCounts(
  frames: FrameMatrix,
  regions: Uint32Array,
  labelsFor: (count: number) => Int32Array,
  maxCount: number,
  signal?: AbortSignal,
): Promise<SpeakerCountScore[]> {
  const scores: SpeakerCountScore[] = [];
  for (let count = 2; count <= maxCount; count += 1) scores.push(await scoreSpeakerCount(frames, regions, labelsFor(count), count, signal));
  return scores;
}

/** The scores of one count (see scoreSpeakerCounts); `initial` = the window clustering's frame labels. */
async function scoreSpeakerCount(
  frames: FrameMatrix,
  regions: Uint32Array,
  initial: Int32Array,
  count: number,
  signal?: AbortSignal,
): Promise<SpeakerCountScore> {
  const labels = await resegmentFrames(frames, regions, initial, count, signal);
  const sizes = new Array<number>(count).fill(0);
  for (const label of labels) sizes[label] = (sizes[label] ?? 0) + 1;
  const minFrames = MIN_ESTIMATED_SPEAKER_SECONDS * (frames.framesPerSecond ?? FRAMES_PER_SECOND);
  const shape = { count, frames: frames.rows, dimension: frames.dimension, labels };
  if (sizes.some((size) => size < minFrames)) return { ...shape, separation: 0, gain: 0, totalGain: 0 };
  // Every speaker has 3 s here, more frames than dimensions, so no pair's scores are left at 0.
  const pairs = speakerPairScores(frames, labels, count);
  return { ...shape, separation: weakestPair(pairs.separation, count), gain: weakestPair(pairs.gain, count), totalGain: pairs.total };
}

/** Every pair of speakers of the count passes both thresholds (SPEAKER_SEPARATION_THRESHOLD, SPEAKER_GAIN_THRESHOLD). */
function separatesEveryPair(score: SpeakerCountScore): boolean {
  return score.separation >= SPEAKER_SEPARATION_THRESHOLD && score.gain >= SPEAKER_GAIN_THRESHOLD;
}

/**
 * The count's BIC against one speaker, per frame: its likelihood gain (totalGain) minus λ · ½ · (count − 1)
 * · P · ln N / N, where each extra full-covariance Gaussian has P = d + d(d + 1)/2 parameters and N is the
 * number of frames (Schwarz 1978; as ΔBIC in Chen & Gopalakrishnan 1998, λ = SPEAKER_COUNT_PENALTY_WEIGHT).
 * @returns nats per frame; higher is better.
 */
export function penalisedGain(score: SpeakerCountScore, weight = SPEAKER_COUNT_PENALTY_WEIGHT): number {
  const parameters = score.dimension + (score.dimension * (score.dimension + 1)) / 2;
  const n = Math.max(score.frames, 2);
  return score.totalGain - (weight * (score.count - 1) * parameters * Math.log(n)) / (2 * n);
}

/** How chooseSpeakerCount and estimateSpeakerCount decide. */
export interface SpeakerCountOptions {
  /** λ of penalisedGain (bench/quality/calibrate-speaker-count.ts tries others). Default SPEAKER_COUNT_PENALTY_WEIGHT. */
  weight?: number;
  /**
   * Look past a 2-speaker split that fails: the one-speaker screen (diarize-builtin.ts screenSpeakers)
   * already found more than one speaker, by its own split on 32 ms frames or by the speakers a cut into 6
   * holds apart (countSpeakersApart), as in a meeting of many voices where each half of a split in two
   * mixes several. Then the count is the passing count of 3 or more of highest BIC, if that BIC beats one
   * speaker's (> 0); else one speaker.
   */
  pastFailedSplit?: boolean;
}

/**
 * Picks the number of speakers from the scores of 2, 3, … speakers. One speaker unless the 2-speaker
 * split passes both thresholds (SPEAKER_SEPARATION_THRESHOLD, SPEAKER_GAIN_THRESHOLD): that decision is
 * the calibrated one (docs/diarization.md, "Speaker-count measurements"). Otherwise, among the counts
 * whose every pair of speakers passes both thresholds (a count where a speaker has under 3 s never does),
 * the one with the highest BIC (penalisedGain); a tie keeps the smaller count. With
 * `options.pastFailedSplit` a failed 2-speaker split is passed over (see SpeakerCountOptions).
 * @param scores from scoreSpeakerCounts, by increasing count, starting at 2.
 * @returns the chosen count's score, or undefined for one speaker.
 */
export function chooseSpeakerCount(scores: readonly SpeakerCountScore[], options: SpeakerCountOptions = {}): SpeakerCountScore | undefined {
  const weight = options.weight ?? SPEAKER_COUNT_PENALTY_WEIGHT;
  const two = scores.find((score) => score.count === 2);
  const splits = two !== undefined && separatesEveryPair(two);
  if (!splits && !options.pastFailedSplit) return undefined;
  let chosen = splits ? two : undefined;
  let best = splits ? penalisedGain(two, weight) : 0;
  for (const score of scores) {
    if (score.count <= (chosen?.count ?? 2) || !separatesEveryPair(score)) continue;
    const value = penalisedGain(score, weight);
    if (value > best) [chosen, best] = [score, value];
  }
  return chosen;
}

/**
 * Estimates the number of speakers: scores 2 speakers, and stops there when they do not pass
 * (chooseSpeakerCount) and `options.pastFailedSplit` is not set, so a single speaker costs one 2-speaker
 * resegmentation; otherwise scores every count up to `maxCount` and lets chooseSpeakerCount pick.
 * @returns `count` 1 … maxCount and, when above 1, the resegmented `labels` (speaker index per frame).
 * @throws `signal.reason` when aborted.
 */
export async function estimateSpeakerCount(
  frames: FrameMatrix,
  regions: Uint32Array,
  labelsFor: (count: number) => Int32Array,
  maxCount: number,
  signal?: AbortSignal,
  options: SpeakerCountOptions = {},
): Promise<{ count: number; labels?: Int32Array }> {
  if (maxCount < 2) return { count: 1 };
  const scores = [await scoreSpeakerCount(frames, regions, labelsFor(2), 2, signal)];
  if (options.pastFailedSplit || chooseSpeakerCount(scores, options) !== undefined) {
    for (let count = 3; count <= maxCount; count += 1)
      scores.push(await scoreSpeakerCount(frames, regions, labelsFor(count), count, signal));
  }
  const chosen = chooseSpeakerCount(scores, options);
  return chosen ? { count: chosen.count, labels: chosen.labels } : { count: 1 };
}

/**
 * How many speakers a labelling holds apart: its clusters of at least 3 s (MIN_ESTIMATED_SPEAKER_SECONDS
 * at the frames' rate), joined wherever a pair misses either threshold (by default
 * SPEAKER_SEPARATION_THRESHOLD, SPEAKER_GAIN_THRESHOLD; ROOM_THRESHOLDS for far-field recordings),
 * counted. Computed from the clusters' statistics alone (one pass over the frames, no resegmentation), so
 * the one-speaker screen can afford it (diarize-builtin.ts).
 * @param labels cluster index (0 … count-1) of every frame, e.g. a window clustering's cut.
 * @returns 1 or more (1 when no cluster has 3 s).
 */
export function countSpeakersApart(
  frames: FrameMatrix,
  labels: Int32Array,
  count: number,
  thresholds: PairThresholds = CLOSE_TALK_THRESHOLDS,
): number {
  const scores = speakerPairScores(frames, labels, count);
  const minFrames = MIN_ESTIMATED_SPEAKER_SECONDS * (frames.framesPerSecond ?? FRAMES_PER_SECOND);
  const large = scores.sizes.flatMap((size, cluster) => (size >= minFrames ? [cluster] : []));
  const group = new Map(large.map((cluster) => [cluster, cluster]));
  const root = (cluster: number): number => {
    while (group.get(cluster) !== cluster) cluster = group.get(cluster)!;
    return cluster;
  };
  for (const a of large) {
    for (const b of large) {
      if (b >= a) continue;
      const apart = scores.separation[a * count + b]! >= thresholds.separation && scores.gain[a * count + b]! >= thresholds.gain;
      if (!apart) group.set(root(a), root(b));
    }
  }
  return Math.max(1, new Set(large.map(root)).size);
}
