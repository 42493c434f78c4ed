'use strict';
/**
 * Child process of run-sherpa-process.ts: loads a sherpa-onnx OfflineRecognizer and decodes the
 * utterances of a 16 kHz mono 16-bit WAV file, each read straight from the file; for a streaming
 * model (`job.online`) an OnlineRecognizer, each utterance fed whole to one stream (decode-online.cjs).
 * A child process, not a worker thread: sherpa-onnx ends the whole process (exit(-1) or abort from
 * an uncaught Ort::Exception) on a damaged or wrong model file, which would take the service down.
 *
 * Receives one IPC message { type: 'job', job } with job = { wavPath, dataOffset, dataBytes,
 * sampleRate, utterances: [{ start, end }] (seconds), config (OfflineRecognizerConfig),
 * languageId (SpokenLanguageIdentification config or null), detectSeconds, probeOnly }.
 * Sends { type: 'language', lang } after identification, { type: 'loaded' } once the recognizer
 * exists, { type: 'progress', seconds, result } per utterance, then { type: 'done', results } with results
 * [{ start, end, text, tokens, timestamps, durations, logProbs, lang }] (logProbs: the result's
 * `ys_log_probs`, one natural-log probability per token; sherpa-onnx 1.13.8 fills it for transducers
 * and leaves it [] for Whisper, SenseVoice and the other CTC models), or { type: 'error', code, message }.
 * Empty utterances are not decoded (empty result), short ones padded with silence (padShort), and
 * boolean config flags become numbers (numericFlags): the runtime pitfalls of sherpa-onnx 1.13.8.
 *
 * Language (plan-sherpa-job.ts): with `languageId`, Whisper's language is identified once on the
 * first `detectSeconds` of speech and set in the config before the recognizer is made. Without it
 * and with an empty Whisper language (`multilingual`), sherpa-onnx identifies the language of each
 * utterance while decoding it, and its result's `lang` says which: nothing to do here but pass `lang`
 * on. SenseVoice always reports `<|xx|>` in `lang`.
 */
const fs = require('node:fs');
const { decodeWholeOnline } = require('./decode-online.cjs');

/**
 * Shortest input handed to the recognizer, seconds: shorter utterances get trailing silence.
 * sherpa-onnx 1.13.8 crashes the process on empty input to Whisper (SIGSEGV) and aborts on fewer
 * than about 4 feature frames to NeMo CTC models (ONNX Runtime error, SIGABRT); trailing silence
 * changes no token start time. Utterances without a single sample are not decoded at all.
 */
const MIN_INPUT_SECONDS = 0.5;

/** `samples` followed by silence up to MIN_INPUT_SECONDS (the same array when long enough). */
function padShort(samples, sampleRate) {
  const least = Math.ceil(MIN_INPUT_SECONDS * sampleRate);
  if (samples.length >= least) return samples;
  const padded = new Float32Array(least);
  padded.set(samples);
  return padded;
}

/**
 * The config with every boolean turned into 0 / 1: sherpa-onnx-node reads its flags as numbers and
 * silently ignores `true` (e.g. Whisper's `enableTokenTimestamps: true` gives no token times).
 */
function numericFlags(value) {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (Array.isArray(value)) return value.map(numericFlags);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, numericFlags(item)]));
  return value;
}

function readSamples(fd, job, start, end) {
  const first = Math.max(0, Math.floor(start * job.sampleRate));
  const count = Math.max(0, Math.min(Math.floor(end * job.sampleRate), Math.floor(job.dataBytes / 2)) - first);
  const bytes = Buffer.alloc(count * 2);
  const got = count === 0 ? 0 : fs.readSync(fd, bytes, 0, bytes.length, job.dataOffset + first * 2);
  const samples = new Float32Array(got >> 1);
  for (let i = 0; i < samples.length; i++) samples[i] = bytes.readInt16LE(i * 2) / 32768;
  return samples;
}

/** Whisper's language of the first `detectSeconds` of speech. */
function identifyLanguage(sherpa, fd, job) {
  const parts = [];
  let left = job.detectSeconds;
  for (const utterance of job.utterances) {
    if (left <= 0) break;
    const end = Math.min(utterance.end, utterance.start + left);
    parts.push(readSamples(fd, job, utterance.start, end));
    left -= end - utterance.start;
  }
  const heard = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (heard.set(part, at), at + part.length), 0);
  if (heard.length === 0) return '';
  const identifier = new sherpa.SpokenLanguageIdentification(numericFlags(job.languageId));
  const stream = identifier.createStream();
  stream.acceptWaveform({ samples: padShort(heard, job.sampleRate), sampleRate: job.sampleRate });
  return identifier.compute(stream);
}

function decodeAll(sherpa, recognizer, fd, job) {
  const results = [];
  for (const utterance of job.utterances) {
    const samples = readSamples(fd, job, utterance.start, utterance.end);
    let result = {};
    if (samples.length > 0 && job.online) {
      result = decodeWholeOnline(recognizer, samples, job.sampleRate);
    } else if (samples.length > 0) {
      const stream = recognizer.createStream();
      stream.acceptWaveform({ samples: padShort(samples, job.sampleRate), sampleRate: job.sampleRate });
      recognizer.decode(stream);
      result = recognizer.getResult(stream);
    }
    results.push({
      start: utterance.start,
      end: utterance.end,
      text: result.text || '',
      tokens: result.tokens || [],
      timestamps: result.timestamps || [],
      durations: result.durations || [],
      logProbs: result.ys_log_probs || [],
      lang: result.lang || '',
    });
    process.send({ type: 'progress', seconds: utterance.end - utterance.start, result: results.at(-1) });
  }
  return results;
}

function run(job) {
  const messageOf = (error) => (error instanceof Error ? error.message : String(error));
  let sherpa;
  try {
    sherpa = require('sherpa-onnx-node');
  } catch (error) {
    return { type: 'error', code: 'engine_unavailable', message: `sherpa-onnx-node cannot be loaded: ${messageOf(error)}` };
  }
  const fd = job.probeOnly ? null : fs.openSync(job.wavPath, 'r');
  try {
    if (job.languageId && !job.probeOnly) {
      const lang = identifyLanguage(sherpa, fd, job);
      if (lang) {
        process.send({ type: 'language', lang });
        if (job.config.modelConfig.whisper) job.config.modelConfig.whisper.language = lang;
      }
    }
    let recognizer;
    try {
      const config = numericFlags(job.config);
      recognizer = job.online ? new sherpa.OnlineRecognizer(config) : new sherpa.OfflineRecognizer(config);
    } catch (error) {
      return { type: 'error', code: 'engine_unavailable', message: messageOf(error) };
    }
    process.send({ type: 'loaded' });
    return { type: 'done', results: job.probeOnly ? [] : decodeAll(sherpa, recognizer, fd, job) };
  } catch (error) {
    return { type: 'error', code: 'recognition_failed', message: messageOf(error) };
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

process.once('message', (message) => {
  process.send(run(message.job), () => process.disconnect());
});
