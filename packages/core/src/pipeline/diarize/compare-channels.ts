import { readWavChunks } from '../decode/read-wav-samples.ts';

/** How the two channels of a stereo recording relate. */
export interface ChannelComparison {
  /** True when the channels carry different speakers: both active and their loudness curves unrelated. */
  separate: boolean;
  /** Pearson correlation of the two channels' loudness (dB per 20 ms) over the frames where either is active. */
  envelopeCorrelation: number;
  /** Fraction 0..1 of the recording's 20 ms frames in which each channel is active. */
  activeFractions: [number, number];
}

const FRAME_SAMPLES = 320; // 20 ms at 16 kHz
/** Same source on both channels (copies, panning, delays) measured ≥ 0.94; different speakers ≤ 0.14. */
const MAX_SEPARATE_CORRELATION = 0.5;
/** Each channel must be active in this fraction of frames (a silent or near-silent channel is not a speaker). */
const MIN_ACTIVE_FRACTION = 0.05;
/** A frame is active when within 30 dB of the channel's loudest frame and above -55 dBFS. */
const ACTIVE_RANGE_DB = 30;
const ACTIVE_FLOOR_DB = -55;

/**
 * Decides whether the two channels of a stereo recording (each decoded to 16 kHz mono WAV by
 * decodeChannelsToPcm) carry different speakers, as in a call recorded one side per channel: both channels
 * are active in at least 5 % of the frames and their loudness curves correlate below 0.5. A mono recording
 * copied or panned to both channels, or one source picked up by two microphones, correlates near 1.
 * Streams both files (memory: 8 bytes per 20 ms frame).
 * @throws AppError `media_unreadable` when a file is not 16-bit PCM WAV; `signal.reason` when aborted.
 */
export async function compareChannels(leftWav: string, rightWav: string, signal?: AbortSignal): Promise<ChannelComparison> {
  const [left, right] = await Promise.all([loudnessCurve(leftWav, signal), loudnessCurve(rightWav, signal)]);
  const frames = Math.min(left.length, right.length);
  const activeLeft = activeFrames(left.subarray(0, frames));
  const activeRight = activeFrames(right.subarray(0, frames));
  const either = [...Array(frames).keys()].filter((i) => activeLeft[i] || activeRight[i]);
  const envelopeCorrelation = correlation(
    either.map((i) => left[i]!),
    either.map((i) => right[i]!),
  );
  const activeFractions: [number, number] = [fraction(activeLeft), fraction(activeRight)];
  const separate = activeFractions.every((f) => f >= MIN_ACTIVE_FRACTION) && envelopeCorrelation < MAX_SEPARATE_CORRELATION;
  return { separate, envelopeCorrelation, activeFractions };
}

/** Loudness in dBFS of each 20 ms frame. */
async function loudnessCurve(wavPath: string, signal?: AbortSignal): Promise<Float64Array> {
  const levels: number[] = [];
  for await (const chunk of readWavChunks(wavPath, FRAME_SAMPLES * 500)) {
    signal?.throwIfAborted();
    for (let at = 0; at + FRAME_SAMPLES <= chunk.length; at += FRAME_SAMPLES) {
      let energy = 0;
      for (let i = at; i < at + FRAME_SAMPLES; i += 1) energy += chunk[i]! * chunk[i]!;
      levels.push(10 * Math.log10(energy / FRAME_SAMPLES + 1e-10));
    }
  }
  return Float64Array.from(levels);
}

function activeFrames(levels: Float64Array): boolean[] {
  const loudest = levels.reduce((max, level) => Math.max(max, level), -Infinity);
  return Array.from(levels, (level) => level > loudest - ACTIVE_RANGE_DB && level > ACTIVE_FLOOR_DB);
}

function fraction(flags: readonly boolean[]): number {
  return flags.length === 0 ? 0 : flags.filter(Boolean).length / flags.length;
}

/** Pearson correlation; 1 when either side is constant (nothing tells the channels apart). */
function correlation(a: readonly number[], b: readonly number[]): number {
  const n = a.length;
  if (n < 2) return 1;
  const meanA = a.reduce((s, x) => s + x, 0) / n;
  const meanB = b.reduce((s, x) => s + x, 0) / n;
  let [ab, aa, bb] = [0, 0, 0];
  for (let i = 0; i < n; i += 1) {
    ab += (a[i]! - meanA) * (b[i]! - meanB);
    aa += (a[i]! - meanA) ** 2;
    bb += (b[i]! - meanB) ** 2;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 1;
}
