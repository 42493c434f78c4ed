import type { VadInterval } from '../../../../contract/output/transcript-model.ts';
import { WAV_HEADER_BYTES } from '../../../decode/encode-wav-header.ts';

/** A stretch of the recording sent as one transcription request, seconds from the start. */
export interface RemoteChunk {
  start: number;
  end: number;
}

export interface PlanRemoteChunksOptions {
  /** Largest WAV file (header included) one request may carry, bytes. */
  maxRequestBytes: number;
  /** Longest chunk, seconds. */
  maxChunkSeconds: number;
  /** Audio kept before and after each speech interval, seconds (default 0.25): tight cuts lose word edges. */
  padSeconds?: number;
  /** A pause longer than this always ends a chunk, seconds (default 5): long silence is neither sent nor billed. */
  maxPauseSeconds?: number;
}

/** 16 kHz mono 16-bit PCM. */
export const PCM_SAMPLE_RATE = 16_000;
const BYTES_PER_SAMPLE = 2;

/**
 * Longest chunk, seconds, whose 16 kHz mono 16-bit WAV (≈ 32 000 bytes/s + 44 bytes of header,
 * plus one sample for rounding) stays within `maxRequestBytes` and which is at most `maxChunkSeconds`.
 */
export function longestChunkSeconds(options: Pick<PlanRemoteChunksOptions, 'maxRequestBytes' | 'maxChunkSeconds'>): number {
  const samples = Math.floor((options.maxRequestBytes - WAV_HEADER_BYTES) / BYTES_PER_SAMPLE) - 1;
  return Math.min(options.maxChunkSeconds, Math.max(0, samples) / PCM_SAMPLE_RATE);
}

/**
 * Groups VAD speech intervals into the chunks of a remote transcription: each interval padded
 * (never past the middle of the pause to its neighbour, nor outside [0, durationSeconds]),
 * neighbours joined while the chunk stays within longestChunkSeconds and the pause between them is
 * at most `maxPauseSeconds`, so chunks are cut at pauses. Only an interval longer than the limit is
 * cut inside, into equal parts.
 * @param speech sorted, non-overlapping intervals in seconds.
 * @returns sorted, non-overlapping chunks in seconds; [] when `speech` is empty.
 * @throws RangeError when the limits leave less than one second per chunk.
 */
export function planRemoteChunks(speech: readonly VadInterval[], durationSeconds: number, options: PlanRemoteChunksOptions): RemoteChunk[] {
  const longest = longestChunkSeconds(options);
  if (!(longest >= 1)) throw new RangeError(`Remote chunks must hold at least 1 s of audio; the limits allow ${longest} s`);
  const maxPause = options.maxPauseSeconds ?? 5;
  const chunks: RemoteChunk[] = [];
  for (const piece of padIntervals(speech, durationSeconds, options.padSeconds ?? 0.25).flatMap((p) => splitEvenly(p, longest))) {
    const last = chunks.at(-1);
    if (last && piece.start - last.end <= maxPause && piece.end - last.start <= longest) last.end = piece.end;
    else chunks.push({ ...piece });
  }
  return chunks;
}

/** Pads each interval by `pad` seconds, stopping at the middle of the gap to each neighbour. */
function padIntervals(speech: readonly VadInterval[], durationSeconds: number, pad: number): RemoteChunk[] {
  const valid = speech.filter((interval) => interval.end > interval.start && interval.start < durationSeconds);
  const padded: RemoteChunk[] = [];
  valid.forEach((interval, index) => {
    const previous = valid[index - 1];
    const next = valid[index + 1];
    const start = Math.max(0, interval.start - pad, previous ? (previous.end + interval.start) / 2 : 0);
    const end = Math.min(durationSeconds, interval.end + pad, next ? (interval.end + next.start) / 2 : Infinity);
    if (end > start) padded.push({ start: roundMs(start), end: roundMs(end) });
  });
  return padded;
}

/** Cuts `piece` into the fewest equal parts of at most `longest` seconds, cut at whole ms. */
function splitEvenly(piece: RemoteChunk, longest: number): RemoteChunk[] {
  const length = piece.end - piece.start;
  const parts = Math.ceil(length / (longest - 0.001) - 1e-9); // room for rounding cuts to ms
  if (parts <= 1 || length <= longest) return [piece];
  const cut = (i: number) => (i === 0 ? piece.start : i === parts ? piece.end : roundMs(piece.start + (i * length) / parts));
  return Array.from({ length: parts }, (_, i) => ({ start: cut(i), end: cut(i + 1) }));
}

function roundMs(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
