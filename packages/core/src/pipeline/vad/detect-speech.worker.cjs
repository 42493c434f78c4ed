'use strict';
/**
 * Worker thread of detect-speech.ts: runs Silero VAD v5 (onnxruntime-node) over the 16-bit mono
 * PCM samples of a 16 kHz WAV file and turns the speech probabilities into intervals.
 *
 * Batched: the file is cut into up to MAX_STREAMS pieces of at least MIN_PIECE_WINDOWS windows, and
 * one model call scores one window of every piece (input [B, 576], state [2, B, 128]). The model is
 * recurrent, so each piece after the first starts WARMUP_WINDOWS windows (about 1 s) early with a
 * zero state, and the probabilities of those warm-up windows are dropped: by the piece's first
 * window the state has forgotten its start (measured: the intervals match a sequential pass; on the
 * 30-minute benchmark file 1 s of warm-up matched it as well as 2 s did, the speech intervals exactly). One
 * call for B windows costs about a third of B calls for one window each (ONNX Runtime, one thread:
 * 0.13 ms per window alone, 0.045 ms per window in a batch of 16, 0.040 in one of 32), which is what makes VAD cheap
 * per audio minute.
 *
 * Kept alive between runs by detect-speech.ts, with the model session of the last run loaded: each
 * { type: 'job', job } message is one run, job = { wavPath, dataOffset, dataBytes, sampleRate, modelPath,
 *   threshold, minSilenceSeconds, minSpeechSeconds, maxSpeechSeconds, speechPadSeconds, stop, maxStreams?,
 *   quietThreshold? }: `stop` is an Int32Array on shared memory; when its first value becomes 1 the run
 *   stops between model calls and posts { type: 'stopped' } (the worker is never terminated during a
 *   run, which could abort the process inside a native call).
 * Posts { type: 'progress', fraction } messages, then { type: 'done', intervals: [{start, end}],
 * quietIntervals?: [{start, end}], probabilities } (seconds, rounded to ms; quietIntervals when
 * quietThreshold is set; probabilities: Float32Array, the speech probability 0..1 of every 512-sample
 * window from the file's start) or { type: 'error', code: 'engine_unavailable' | 'recognition_failed', message }.
 */
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');

/** Silero VAD v5 at 16 kHz: 512 new samples per call, plus the previous call's last 64 as context. */
const WINDOW = 512;
const CONTEXT = 64;
const MAX_STREAMS = 32;
/** A piece is at least about 30 s long, so the warm-up costs at most 3.5 % extra. */
const MIN_PIECE_WINDOWS = 938;
const WARMUP_WINDOWS = 32;
/** Windows read from the file per piece at a time. */
const BLOCK_WINDOWS = 64;

async function createSession(modelPath) {
  const ort = require('onnxruntime-node');
  const session = await ort.InferenceSession.create(modelPath, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  if (!session.inputNames.includes('state') || !session.inputNames.includes('input')) {
    throw new Error(`${modelPath} is not a Silero VAD v5 model (inputs: ${session.inputNames.join(', ')})`);
  }
  return { ort, session };
}

/** Cuts `windows` windows into pieces: [{ warm, first, end }] window indexes (warm ≤ first < end). */
function planPieces(windows, maxStreams) {
  const count = Math.max(1, Math.min(maxStreams, Math.floor(windows / MIN_PIECE_WINDOWS)));
  const pieces = [];
  for (let b = 0; b < count; b++) {
    const first = Math.floor((windows * b) / count);
    const end = Math.floor((windows * (b + 1)) / count);
    pieces.push({ warm: Math.max(0, first - WARMUP_WINDOWS), first, end });
  }
  return pieces;
}

/** Reads one piece's samples in blocks; a piece's first window has zero context (a fresh start). */
class PieceReader {
  constructor(fd, options, piece) {
    this.fd = fd;
    this.options = options;
    this.piece = piece;
    this.blockStart = -1;
    this.bytes = Buffer.alloc((BLOCK_WINDOWS * WINDOW + CONTEXT) * 2);
    this.samples = new Float32Array(BLOCK_WINDOWS * WINDOW + CONTEXT);
  }

  /** Writes window `k`'s 576 input samples (context + window) into `target` at `offset`. */
  fill(k, target, offset) {
    if (this.blockStart < 0 || k >= this.blockStart + BLOCK_WINDOWS) this.load(k);
    const at = (k - this.blockStart) * WINDOW;
    target.set(this.samples.subarray(at, at + CONTEXT + WINDOW), offset);
    if (k === this.piece.warm) target.fill(0, offset, offset + CONTEXT);
  }

  load(k) {
    this.blockStart = k;
    this.samples.fill(0);
    const fromSample = k * WINDOW - CONTEXT; // -64 for the file's first window: zeros
    const skip = fromSample < 0 ? -fromSample : 0;
    const fromByte = (fromSample + skip) * 2;
    const want = Math.min(this.bytes.length - skip * 2, this.options.dataBytes - fromByte);
    if (want < 2) return;
    const got = fs.readSync(this.fd, this.bytes, 0, want, this.options.dataOffset + fromByte);
    const pcm = new Int16Array(this.bytes.buffer, this.bytes.byteOffset, got >> 1); // little-endian, as WAV (x86, ARM)
    for (let i = 0; i < pcm.length; i++) this.samples[skip + i] = pcm[i] / 32768;
  }
}

/** Speech probability (0..1) of every 32 ms window of the file, or null when stopped. */
async function scoreWindows(options, ort, session) {
  const totalSamples = Math.floor(options.dataBytes / 2);
  const windows = Math.ceil(totalSamples / WINDOW);
  const pieces = planPieces(windows, options.maxStreams ?? MAX_STREAMS);
  const streams = pieces.length;
  const probabilities = new Float32Array(windows);
  const input = new Float32Array(streams * (CONTEXT + WINDOW));
  let state = new Float32Array(2 * streams * 128);
  const sampleRate = new ort.Tensor('int64', BigInt64Array.from([BigInt(options.sampleRate)]));
  const steps = Math.max(...pieces.map((p) => p.end - p.warm));
  const fd = fs.openSync(options.wavPath, 'r');
  try {
    const readers = pieces.map((piece) => new PieceReader(fd, options, piece));
    let lastReport = 0;
    for (let t = 0; t < steps; t++) {
      if (Atomics.load(options.stop, 0) === 1) return null;
      for (let b = 0; b < streams; b++) {
        const k = pieces[b].warm + t;
        if (k < pieces[b].end) readers[b].fill(k, input, b * (CONTEXT + WINDOW));
        else input.fill(0, b * (CONTEXT + WINDOW), (b + 1) * (CONTEXT + WINDOW));
      }
      const result = await session.run({
        input: new ort.Tensor('float32', input, [streams, CONTEXT + WINDOW]),
        state: new ort.Tensor('float32', state, [2, streams, 128]),
        sr: sampleRate,
      });
      const output = result[session.outputNames[0]].data;
      state = result[session.outputNames[1]].data;
      for (let b = 0; b < streams; b++) {
        const k = pieces[b].warm + t;
        if (k >= pieces[b].first && k < pieces[b].end) probabilities[k] = output[b];
      }
      if (t - lastReport >= steps / 20) {
        lastReport = t;
        parentPort.postMessage({ type: 'progress', fraction: t / steps });
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  parentPort.postMessage({ type: 'progress', fraction: 1 });
  return { probabilities, totalSamples };
}

/**
 * Speech intervals from window probabilities, in samples: the rules of Silero VAD's own
 * `get_speech_timestamps` (snakers4/silero-vad, utils_vad.py): speech starts at a window ≥
 * `threshold`, ends after `minSilence` below `threshold − 0.15`; shorter than `minSpeech` is
 * dropped; longer than `maxSpeech` is cut at the last pause of at least 98 ms, else hard; each
 * interval is padded by `speechPad` on both sides (half the gap when two are closer than that).
 */
function findIntervals(probabilities, totalSamples, options) {
  const sr = options.sampleRate;
  const threshold = options.threshold;
  const negThreshold = Math.max(threshold - 0.15, 0.01);
  const minSpeech = sr * options.minSpeechSeconds;
  const minSilence = sr * options.minSilenceSeconds;
  const pad = Math.round(sr * options.speechPadSeconds);
  const maxSpeech = sr * options.maxSpeechSeconds - WINDOW - 2 * pad;
  const minSilenceAtMaxSpeech = sr * 0.098;
  const speeches = [];
  let triggered = false;
  let start = 0;
  let tempEnd = 0;
  let prevEnd = 0;
  let nextStart = 0;
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i];
    const at = WINDOW * i;
    if (p >= threshold && tempEnd) {
      tempEnd = 0;
      if (nextStart < prevEnd) nextStart = at;
    }
    if (p >= threshold && !triggered) {
      triggered = true;
      start = at;
      continue;
    }
    if (triggered && at - start > maxSpeech) {
      if (prevEnd) {
        speeches.push({ start, end: prevEnd });
        if (nextStart < prevEnd) triggered = false;
        else start = nextStart;
        prevEnd = nextStart = tempEnd = 0;
      } else {
        speeches.push({ start, end: at });
        prevEnd = nextStart = tempEnd = 0;
        triggered = false;
        continue;
      }
    }
    if (p < negThreshold && triggered) {
      if (!tempEnd) tempEnd = at;
      if (at - tempEnd > minSilenceAtMaxSpeech) prevEnd = tempEnd;
      if (at - tempEnd < minSilence) continue;
      if (tempEnd - start > minSpeech) speeches.push({ start, end: tempEnd });
      prevEnd = nextStart = tempEnd = 0;
      triggered = false;
    }
  }
  if (triggered && totalSamples - start > minSpeech) speeches.push({ start, end: totalSamples });
  for (let i = 0; i < speeches.length; i++) {
    const speech = speeches[i];
    if (i === 0) speech.start = Math.max(0, speech.start - pad);
    if (i < speeches.length - 1) {
      const next = speeches[i + 1];
      const gap = next.start - speech.end;
      if (gap < 2 * pad) {
        speech.end += Math.floor(gap / 2);
        next.start = Math.max(0, next.start - Math.floor(gap / 2));
      } else {
        speech.end = Math.min(totalSamples, speech.end + pad);
        next.start = Math.max(0, next.start - pad);
      }
    } else {
      speech.end = Math.min(totalSamples, speech.end + pad);
    }
  }
  const seconds = (samples) => Math.round((samples / sr) * 1000) / 1000;
  return speeches.map((s) => ({ start: seconds(s.start), end: seconds(s.end) })).filter((s) => s.end > s.start);
}

/**
 * Stretches where the probability reaches `onset` and has not stayed below `onset − 0.15` for
 * `minSilenceSeconds` (the quiet speech of far-field talkers, which the transcript's threshold misses;
 * diarize/add-quiet-speech.ts has the reasons), without padding or length cap;
 * pieces shorter than `minSpeechSeconds` dropped. Seconds, rounded to ms.
 */
function findQuietIntervals(probabilities, totalSamples, options) {
  const sr = options.sampleRate;
  const onset = options.quietThreshold;
  const offset = onset - 0.15;
  const windowSeconds = WINDOW / sr;
  const regions = [];
  let start = -1;
  let silentSince = -1;
  const close = (end) => {
    if (end - start >= options.minSpeechSeconds) regions.push({ start, end });
    start = -1;
    silentSince = -1;
  };
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i];
    const time = i * windowSeconds;
    if (p >= onset) {
      if (start < 0) start = time;
      silentSince = -1;
    } else if (start >= 0 && p < offset) {
      if (silentSince < 0) silentSince = time;
      if (time + windowSeconds - silentSince >= options.minSilenceSeconds) close(silentSince);
    }
  }
  if (start >= 0) close(silentSince >= 0 ? silentSince : totalSamples / sr);
  const ms = (seconds) => Math.round(seconds * 1000) / 1000;
  return regions.map((r) => ({ start: ms(r.start), end: ms(r.end) }));
}

/** The model session of the last job, kept for the next one (loading it costs ~50 ms of CPU). */
let cached = null; // { modelPath, ort, session }

async function sessionFor(modelPath) {
  if (cached !== null && cached.modelPath === modelPath) return cached;
  if (cached !== null) {
    const old = cached;
    cached = null;
    await old.session.release().catch(() => {});
  }
  const created = await createSession(modelPath);
  cached = { modelPath, ...created };
  return cached;
}

/** One job: what detect-speech.ts sent (the workerData described above); resolves to the final message. */
async function run(job) {
  const messageOf = (error) => (error instanceof Error ? error.message : String(error));
  let model;
  try {
    model = await sessionFor(job.modelPath);
  } catch (error) {
    return { type: 'error', code: 'engine_unavailable', message: messageOf(error) };
  }
  try {
    const scored = await scoreWindows(job, model.ort, model.session);
    if (scored === null) return { type: 'stopped' };
    const intervals = findIntervals(scored.probabilities, scored.totalSamples, job);
    const done = { type: 'done', intervals, probabilities: scored.probabilities };
    if (typeof job.quietThreshold !== 'number') return done;
    return { ...done, quietIntervals: findQuietIntervals(scored.probabilities, scored.totalSamples, job) };
  } catch (error) {
    return { type: 'error', code: 'recognition_failed', message: messageOf(error) };
  }
}

// One job per { type: 'job', job } message, one at a time (detect-speech.ts sends the next only after the last one's final message).
parentPort.on('message', (message) => {
  if (message && message.type === 'job') run(message.job).then((result) => parentPort.postMessage(result));
});
