'use strict';
/**
 * Child process of diarize-with-sherpa.ts: runs sherpa-onnx-node's OfflineSpeakerDiarization (pyannote
 * segmentation + speaker embeddings + clustering; one synchronous native call) over a whole 16 kHz mono
 * 16-bit WAV file. A child process, not a worker thread: onnxruntime aborts the whole process on a damaged
 * model file, and only this child must die then.
 * Receives one IPC message { wavPath, dataOffset, dataBytes, segmentationModel, embeddingModel, numClusters,
 * threshold }; sends { type: 'done', segments: [{ start, end, speaker }] } (seconds, speaker an integer) or
 * { type: 'error', code: 'engine_unavailable' | 'recognition_failed', message }, then exits.
 */
const fs = require('node:fs');

function createDiarizer(options) {
  const { OfflineSpeakerDiarization } = require('sherpa-onnx-node');
  return new OfflineSpeakerDiarization({
    segmentation: { pyannote: { model: options.segmentationModel }, numThreads: 1, debug: 0 },
    embedding: { model: options.embeddingModel, numThreads: 1, debug: 0 },
    // numClusters > 0 fixes the number of speakers; -1 lets the threshold decide (larger: fewer speakers).
    clustering: { numClusters: options.numClusters, threshold: options.threshold },
    minDurationOn: 0.3,
    minDurationOff: 0.5,
  });
}

function readSamples(options) {
  const bytes = Buffer.alloc(options.dataBytes - (options.dataBytes % 2));
  const fd = fs.openSync(options.wavPath, 'r');
  try {
    fs.readSync(fd, bytes, 0, bytes.length, options.dataOffset);
  } finally {
    fs.closeSync(fd);
  }
  const samples = new Float32Array(bytes.length >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2) / 32768;
  return samples;
}

function run(options) {
  const messageOf = (error) => (error instanceof Error ? error.message : String(error));
  let diarizer;
  try {
    diarizer = createDiarizer(options);
  } catch (error) {
    return { type: 'error', code: 'engine_unavailable', message: messageOf(error) };
  }
  if (diarizer.sampleRate !== 16000) {
    return { type: 'error', code: 'engine_unavailable', message: `the models expect ${diarizer.sampleRate} Hz audio, not 16000 Hz` };
  }
  try {
    const segments = diarizer.process(readSamples(options));
    return { type: 'done', segments: segments.map((s) => ({ start: s.start, end: s.end, speaker: s.speaker })) };
  } catch (error) {
    return { type: 'error', code: 'recognition_failed', message: messageOf(error) };
  }
}

process.once('message', (options) => {
  process.send(run(options), () => process.exit(0));
});
