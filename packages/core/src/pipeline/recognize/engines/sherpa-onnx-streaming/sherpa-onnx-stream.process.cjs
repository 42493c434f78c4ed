'use strict';
/**
 * Child process of open-sherpa-live-stream.ts: holds one sherpa-onnx OnlineRecognizer (a streaming
 * model) for one live session and decodes its turns as their audio arrives. A child process, not a
 * worker thread: sherpa-onnx ends the whole process on a damaged model file (exit, abort), and
 * `decode` is a synchronous native call.
 *
 * IPC (serialization 'advanced', so samples travel as Float32Array), in order:
 * - in { type: 'open', config } (OnlineRecognizerConfig) → out { type: 'loaded' } or { type: 'error', code, message };
 * - in { type: 'begin', turn } starts turn `turn` on a fresh stream;
 * - in { type: 'audio', turn, samples } (16 kHz, [-1, 1]) → decodes every ready chunk, then
 *   out { type: 'fed', turn, samples: count, text? } (`text`: the turn's whole text, only when it changed);
 * - in { type: 'end', turn } → tail of silence, end of input, out { type: 'final', turn, text };
 * - in { type: 'drop', turn } forgets the turn (no answer).
 * A decoding error is out { type: 'error', code: 'recognition_failed', message } and the process ends.
 */
const { decodeReady, finishStream } = require('../sherpa-onnx/decode-online.cjs');

const RATE = 16000;
let recognizer = null;
let current = null; // { turn, stream, text }

/** Flags as numbers: sherpa-onnx-node ignores `true` (see sherpa-onnx-recognize.process.cjs). */
function numericFlags(value) {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return value.map(numericFlags);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, numericFlags(item)]));
  return value;
}

const messageOf = (error) => (error instanceof Error ? error.message : String(error));

function fail(code, error) {
  process.send({ type: 'error', code, message: messageOf(error) }, () => process.exit(1));
}

function handle(message) {
  if (message.type === 'open') {
    let sherpa;
    try {
      sherpa = require('sherpa-onnx-node');
    } catch (error) {
      return fail('engine_unavailable', `sherpa-onnx-node cannot be loaded: ${messageOf(error)}`);
    }
    try {
      recognizer = new sherpa.OnlineRecognizer(numericFlags(message.config));
    } catch (error) {
      return fail('engine_unavailable', error);
    }
    return process.send({ type: 'loaded' });
  }
  if (message.type === 'begin') {
    current = { turn: message.turn, stream: recognizer.createStream(), text: '' };
    return;
  }
  if (!current || current.turn !== message.turn) return; // a dropped turn's leftovers
  if (message.type === 'drop') {
    current = null;
    return;
  }
  if (message.type === 'audio') {
    current.stream.acceptWaveform({ samples: message.samples, sampleRate: RATE });
    decodeReady(recognizer, current.stream);
    const text = recognizer.getResult(current.stream).text || '';
    const changed = text !== current.text;
    current.text = text;
    return process.send({ type: 'fed', turn: message.turn, samples: message.samples.length, ...(changed ? { text } : {}) });
  }
  if (message.type === 'end') {
    const result = finishStream(recognizer, current.stream, RATE);
    const turn = current.turn;
    current = null;
    return process.send({ type: 'final', turn, text: result.text || '' });
  }
}

process.on('message', (message) => {
  try {
    handle(message);
  } catch (error) {
    fail('recognition_failed', error);
  }
});
process.on('disconnect', () => process.exit(0));
