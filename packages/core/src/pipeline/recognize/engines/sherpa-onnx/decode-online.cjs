'use strict';
/**
 * Streaming (OnlineRecognizer) decoding shared by the sherpa-onnx child processes: the recording
 * child (sherpa-onnx-recognize.process.cjs, one whole utterance per stream) and the live child
 * (../sherpa-onnx-streaming/sherpa-onnx-stream.process.cjs, audio as it arrives).
 * Facts of sherpa-onnx-node 1.13.8 (docs/model-families.md, "Streaming"): a stream decodes only
 * whole chunks, each `window_size` feature frames of look-ahead past its start, so the last
 * fraction of a second of an utterance is decoded only once more audio follows it: the end of an
 * utterance is fed TAIL_SECONDS of silence before `inputFinished()`. `isReady`/`decode` are
 * synchronous native calls (they block the thread they run on: only child processes call them).
 */

/**
 * Seconds of silence after an utterance's last sample: covers the look-ahead of the catalog's
 * streaming models (up to the 1040 ms NeMo chunks plus their look-ahead) and of the fixture.
 */
const TAIL_SECONDS = 1.2;

/** Runs every chunk the stream has ready; returns how many were decoded. */
function decodeReady(recognizer, stream) {
  let chunks = 0;
  while (recognizer.isReady(stream)) {
    recognizer.decode(stream);
    chunks++;
  }
  return chunks;
}

/** Feeds the tail of silence, ends the input and decodes what is left. */
function finishStream(recognizer, stream, sampleRate) {
  stream.acceptWaveform({ samples: new Float32Array(Math.round(TAIL_SECONDS * sampleRate)), sampleRate });
  stream.inputFinished();
  decodeReady(recognizer, stream);
  return recognizer.getResult(stream);
}

/**
 * One utterance through a fresh stream: the OnlineRecognizer result in the recording child's shape
 * { text, tokens, timestamps (seconds from the utterance start), durations: [], ys_log_probs: [], lang: '' }.
 */
function decodeWholeOnline(recognizer, samples, sampleRate) {
  const stream = recognizer.createStream();
  stream.acceptWaveform({ samples, sampleRate });
  const result = finishStream(recognizer, stream, sampleRate);
  return {
    text: result.text || '',
    tokens: result.tokens || [],
    timestamps: result.timestamps || [],
    durations: [],
    ys_log_probs: [],
    lang: '',
  };
}

module.exports = { TAIL_SECONDS, decodeReady, finishStream, decodeWholeOnline };
