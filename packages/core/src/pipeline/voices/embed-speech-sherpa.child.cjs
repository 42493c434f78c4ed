'use strict';
/**
 * Child process of embed-speech-sherpa.ts: computes sherpa-onnx-node's SpeakerEmbeddingExtractor embedding
 * of each group of regions of a 16 kHz mono 16-bit WAV file (the regions' samples joined). A child process,
 * not a worker thread: onnxruntime aborts the process it runs in on a damaged model file.
 * Receives one IPC message { wavPath, dataOffset, dataBytes, model, groups: [[[firstSample, endSample], …], …] };
 * sends { type: 'done', vectors: [number[] | null, …] } (null for a group without samples) or
 * { type: 'error', code: 'engine_unavailable' | 'recognition_failed', message }, then exits.
 */
const fs = require('node:fs');

function readSamples(options, fd, first, end) {
  const total = Math.floor(options.dataBytes / 2);
  const from = Math.max(0, Math.min(first, total));
  const to = Math.max(from, Math.min(end, total));
  const bytes = Buffer.alloc((to - from) * 2);
  fs.readSync(fd, bytes, 0, bytes.length, options.dataOffset + from * 2);
  const samples = new Float32Array(to - from);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2) / 32768;
  return samples;
}

function run(options) {
  const messageOf = (error) => (error instanceof Error ? error.message : String(error));
  let extractor;
  try {
    const { SpeakerEmbeddingExtractor } = require('sherpa-onnx-node');
    extractor = new SpeakerEmbeddingExtractor({ model: options.model, numThreads: 1, debug: false, provider: 'cpu' });
  } catch (error) {
    return { type: 'error', code: 'engine_unavailable', message: messageOf(error) };
  }
  const fd = fs.openSync(options.wavPath, 'r');
  try {
    const vectors = options.groups.map((group) => {
      const stream = extractor.createStream();
      let count = 0;
      for (const [first, end] of group) {
        const samples = readSamples(options, fd, first, end);
        if (samples.length === 0) continue;
        stream.acceptWaveform({ sampleRate: 16000, samples });
        count += samples.length;
      }
      if (count === 0) return null;
      stream.inputFinished();
      if (!extractor.isReady(stream)) return null;
      return Array.from(extractor.compute(stream));
    });
    return { type: 'done', vectors };
  } catch (error) {
    return { type: 'error', code: 'recognition_failed', message: messageOf(error) };
  } finally {
    fs.closeSync(fd);
  }
}

process.once('message', (options) => {
  process.send(run(options), () => process.exit(0));
});
