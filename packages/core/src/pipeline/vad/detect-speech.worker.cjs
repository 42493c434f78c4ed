'use strict';
/**
 * Worker thread of detect-speech.ts: runs the Silero VAD of sherpa-onnx-node (synchronous native
 * calls) over the 16-bit mono PCM samples of a WAV file, streaming the file in chunks.
 * workerData: { wavPath, dataOffset, dataBytes, sampleRate, modelPath, threshold, minSilenceSeconds,
 *   minSpeechSeconds, maxSpeechSeconds, stop }: `stop` is an Int32Array on shared memory; when its
 *   first value becomes 1 the worker stops between chunks, posts { type: 'stopped' } and ends (it is
 *   never terminated from outside, which would abort the process inside a native call).
 * Posts { type: 'progress', fraction } messages, then { type: 'done', intervals: [{start, end}] }
 * (seconds, rounded to ms) or { type: 'error', code: 'engine_unavailable' | 'recognition_failed', message }.
 */
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');

const WINDOW_SAMPLES = 512;
const CHUNK_SAMPLES = 32 * WINDOW_SAMPLES;

function createVad(options) {
  const { Vad } = require('sherpa-onnx-node');
  const config = {
    sileroVad: {
      model: options.modelPath,
      threshold: options.threshold,
      minSilenceDuration: options.minSilenceSeconds,
      minSpeechDuration: options.minSpeechSeconds,
      windowSize: WINDOW_SAMPLES,
      maxSpeechDuration: options.maxSpeechSeconds,
    },
    sampleRate: options.sampleRate,
    numThreads: 1,
    debug: false,
  };
  return new Vad(config, 60);
}

function drain(vad, sampleRate, intervals) {
  while (!vad.isEmpty()) {
    const segment = vad.front(false);
    const start = segment.start / sampleRate;
    const end = (segment.start + segment.samples.length) / sampleRate;
    intervals.push({ start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000 });
    vad.pop();
  }
}

function detect(options, vad) {
  const intervals = [];
  const bytes = Buffer.alloc(CHUNK_SAMPLES * 2);
  const samples = new Float32Array(CHUNK_SAMPLES);
  const fd = fs.openSync(options.wavPath, 'r');
  try {
    let done = 0;
    let lastReport = 0;
    while (done + 1 < options.dataBytes) {
      if (Atomics.load(options.stop, 0) === 1) return null;
      const want = Math.min(bytes.length, options.dataBytes - done);
      const got = fs.readSync(fd, bytes, 0, want, options.dataOffset + done);
      if (got < 2) break;
      const count = got >> 1;
      for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(i * 2) / 32768;
      // The VAD must get exactly one window per call: bigger arrays make it miss the ends of speech.
      // Views, not copies: the VAD copies the samples itself.
      for (let i = 0; i < count; i += WINDOW_SAMPLES) {
        vad.acceptWaveform(samples.subarray(i, Math.min(i + WINDOW_SAMPLES, count)));
      }
      drain(vad, options.sampleRate, intervals);
      done += count * 2;
      if (done - lastReport >= options.dataBytes / 20) {
        lastReport = done;
        parentPort.postMessage({ type: 'progress', fraction: done / options.dataBytes });
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  vad.flush();
  drain(vad, options.sampleRate, intervals);
  return intervals;
}

function run() {
  const messageOf = (error) => (error instanceof Error ? error.message : String(error));
  let vad;
  try {
    vad = createVad(workerData);
  } catch (error) {
    return { type: 'error', code: 'engine_unavailable', message: messageOf(error) };
  }
  try {
    const intervals = detect(workerData, vad);
    return intervals === null ? { type: 'stopped' } : { type: 'done', intervals };
  } catch (error) {
    return { type: 'error', code: 'recognition_failed', message: messageOf(error) };
  }
}

parentPort.postMessage(run());
