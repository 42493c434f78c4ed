import { open } from 'node:fs/promises';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { assertPcm16kMono, readWavLayout } from '../decode/read-wav-layout.ts';
import { createMfccExtractor } from './compute-mfcc.ts';
import type { TimeRegion } from './speaker-turn.ts';

/** MFCC frames of the speech in a recording. */
export interface SpeechFeatures {
  /** Number of values per frame. */
  dimension: number;
  /** `frames × dimension` values, frame after frame. */
  values: Float32Array;
  /** Centre of each frame, seconds from the start of the recording. */
  times: Float64Array;
  /** Index in `speech` of the region each frame belongs to. */
  regions: Uint32Array;
  /** Seconds between frames. */
  hopSeconds: number;
}

const SAMPLE_RATE = 16000;
const FRAME_SAMPLES = 512; // 32 ms; a power of two for the FFT
const HOP_SAMPLES = 256; // 16 ms
/** The coarse grid: 32 ms frames every 32 ms, half the frames (diarize-builtin.ts's one-speaker screen). */
export const COARSE_HOP_SAMPLES = 512;
/** Feature frames per second of speech. */
export const FRAMES_PER_SECOND = SAMPLE_RATE / HOP_SAMPLES;
const MFCC_COEFFICIENTS = 20;
const MEL_BANDS = 40;
const FRAMES_PER_SLICE = 4000; // yield to the event loop about every 100 ms of work

/**
 * Computes 20 MFCCs (meyda's definition, bit for bit: 40 mel bands, Hann window of 32 ms every 16 ms;
 * compute-mfcc.ts) over the `speech` regions of a 16 kHz mono 16-bit WAV file, reading one region at a
 * time, and yields to the event loop between slices of work so a long recording never blocks it
 * (~9 µs per frame: ~2 s of CPU per hour of speech; bench/vad-diarization-cpu.ts).
 * @param hopSamples samples between frame starts: 256 (16 ms, the diarizer's grid) or COARSE_HOP_SAMPLES
 *   (32 ms: every other frame of the 16 ms grid, half the work).
 * @param offsetSamples where each region's first frame starts, from the region's start (0; refineSpeechFeatures
 *   uses 256 for the frames between the coarse grid's).
 * Memory: the samples of the longest region (2 bytes per sample) plus 92 bytes per frame, allocated
 * once (the frame count follows from the regions): ~21 MB per hour of speech.
 * @throws AppError `media_unreadable` (not a WAV file), `recognition_failed` (not 16 kHz mono 16-bit integer PCM);
 *   `signal.reason` when aborted.
 */
export async function extractSpeechFeatures(
  wavPath: string,
  speech: readonly TimeRegion[],
  signal?: AbortSignal,
  hopSamples: number = HOP_SAMPLES,
  offsetSamples = 0,
): Promise<SpeechFeatures> {
  const header = await readWavLayout(wavPath);
  assertPcm16kMono(header, wavPath);
  const spans = sampleSpans(speech, Math.floor(header.dataBytes / 2));
  const frames = spans.reduce((sum, span) => sum + framesIn(span, hopSamples, offsetSamples), 0);
  const features = emptyFeatures(frames, hopSamples);
  const longest = spans.reduce((most, span) => Math.max(most, span.last - span.first), 0);
  const bytes = Buffer.alloc(longest * 2);
  // The extractor reads the samples in place (little-endian, as WAV on x86 and ARM): a copy to floats cost
  // ~1.3 µs per 32 ms frame, a readInt16LE call per sample ~2 µs.
  const pcm = new Int16Array(bytes.buffer, bytes.byteOffset, longest);
  const extract = createMfccExtractor({
    frameSamples: FRAME_SAMPLES,
    sampleRate: SAMPLE_RATE,
    melBands: MEL_BANDS,
    coefficients: MFCC_COEFFICIENTS,
  });
  const file = await open(wavPath, 'r');
  try {
    let frame = 0;
    for (const span of spans) {
      const length = span.last - span.first;
      await file.read(bytes, 0, length * 2, header.dataOffset + span.first * 2);
      for (let at = offsetSamples; at + FRAME_SAMPLES <= length; at += hopSamples, frame += 1) {
        extract(pcm, at, features.values, frame * MFCC_COEFFICIENTS);
        features.times[frame] = (span.first + at + FRAME_SAMPLES / 2) / SAMPLE_RATE;
        features.regions[frame] = span.region;
        if ((frame + 1) % FRAMES_PER_SLICE === 0) await pause(signal);
      }
    }
  } finally {
    await file.close();
  }
  return features;
}

/**
 * The 16 ms features from the 32 ms ones: computes only the frames between the coarse grid's (each
 * region's frames starting 16 ms in, every 32 ms) and interleaves the two sets in time order. The coarse
 * frames are exactly the even frames of the 16 ms grid, so the result equals
 * `extractSpeechFeatures(wavPath, speech, signal)` value for value, at half its cost (the diarizer runs
 * it after the one-speaker screen found a second speaker; extract-speech-features.test.ts compares them).
 * @param coarse `extractSpeechFeatures(wavPath, speech, signal, COARSE_HOP_SAMPLES)` of the same `speech`.
 * @throws as extractSpeechFeatures; Error when `coarse` is not 32 ms frames of `speech`.
 */
export async function refineSpeechFeatures(
  wavPath: string,
  speech: readonly TimeRegion[],
  coarse: SpeechFeatures,
  signal?: AbortSignal,
): Promise<SpeechFeatures> {
  if (coarse.hopSeconds !== COARSE_HOP_SAMPLES / SAMPLE_RATE)
    throw new Error(`refineSpeechFeatures needs 32 ms frames, not ${coarse.hopSeconds} s`);
  const between = await extractSpeechFeatures(wavPath, speech, signal, COARSE_HOP_SAMPLES, HOP_SAMPLES);
  const d = coarse.dimension;
  const total = coarse.times.length + between.times.length;
  const fine = emptyFeatures(total, HOP_SAMPLES);
  // Both sets are in time order, regions in order; within a region a coarse frame comes first.
  let [a, b] = [0, 0];
  for (let frame = 0; frame < total; frame += 1) {
    const takeCoarse =
      b >= between.times.length ||
      (a < coarse.times.length &&
        (coarse.regions[a]! < between.regions[b]! || (coarse.regions[a] === between.regions[b] && coarse.times[a]! < between.times[b]!)));
    const [from, at] = takeCoarse ? [coarse, a++] : [between, b++];
    fine.values.set(from.values.subarray(at * d, (at + 1) * d), frame * d);
    fine.times[frame] = from.times[at]!;
    fine.regions[frame] = from.regions[at]!;
  }
  return fine;
}

/** Zeroed features for `frames` frames of MFCC_COEFFICIENTS values, `hopSamples` apart. */
function emptyFeatures(frames: number, hopSamples: number): SpeechFeatures {
  return {
    dimension: MFCC_COEFFICIENTS,
    values: new Float32Array(frames * MFCC_COEFFICIENTS),
    times: new Float64Array(frames),
    regions: new Uint32Array(frames),
    hopSeconds: hopSamples / SAMPLE_RATE,
  };
}

/** A speech region as samples `[first, last)` of the file; `region` is its index in `speech`. */
interface SampleSpan {
  region: number;
  first: number;
  last: number;
}

/** The regions long enough for one frame, clipped to the file. */
function sampleSpans(speech: readonly TimeRegion[], totalSamples: number): SampleSpan[] {
  const spans = speech.map((region, index) => ({
    region: index,
    first: Math.max(0, Math.round(region.start * SAMPLE_RATE)),
    last: Math.min(totalSamples, Math.round(region.end * SAMPLE_RATE)),
  }));
  return spans.filter((span) => span.last - span.first >= FRAME_SAMPLES);
}

function framesIn(span: SampleSpan, hopSamples: number, offsetSamples: number): number {
  const room = span.last - span.first - offsetSamples - FRAME_SAMPLES;
  return room < 0 ? 0 : Math.floor(room / hopSamples) + 1;
}

async function pause(signal?: AbortSignal): Promise<void> {
  await yieldToEventLoop();
  signal?.throwIfAborted();
}
