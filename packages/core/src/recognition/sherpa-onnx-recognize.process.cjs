'use strict';
/**
 * Child process of run-sherpa-process.ts: loads a sherpa-onnx OfflineRecognizer and decodes the
 * utterances of a 16 kHz mono 16-bit WAV file, each read straight from the file.
 * A child process, not a worker thread: sherpa-onnx ends the whole process (exit(-1) or abort from
 * an uncaught Ort::Exception) on a damaged or wrong model file, which would take the service down.
 *
 * Receives one IPC message { type: 'job', job } with job = { wavPath, dataOffset, dataBytes,
 * sampleRate, utterances: [{ start, end }] (seconds), config (OfflineRecognizerConfig),
 * languageId (SpokenLanguageIdentification config or null), detectSeconds, probeOnly }.
 * Sends { type: 'language', lang } after identification, { type: 'loaded' } once the recognizer
 * exists, { type: 'progress', seconds } per utterance, then { type: 'done', results } with results
 * [{ start, end, text, tokens, timestamps, lang }], or { type: 'error', code, message }.
 *
 * Language (plan-sherpa-job.ts): with `languageId`, Whisper's language is identified once on the
 * first `detectSeconds` of speech and set in the config before the recognizer is made. Without it
 * and with an empty Whisper language (`multilingual`), sherpa-onnx identifies the language of each
 * utterance while decoding it, and its result's `lang` says which: nothing to do here but pass `lang`
 * on. SenseVoice always reports `<|xx|>` in `lang`.
 */
const fs = require('node:fs');

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
  const identifier = new sherpa.SpokenLanguageIdentification(job.languageId);
  const stream = identifier.createStream();
  let left = job.detectSeconds;
  for (const utterance of job.utterances) {
    if (left <= 0) break;
    const end = Math.min(utterance.end, utterance.start + left);
    stream.acceptWaveform({ samples: readSamples(fd, job, utterance.start, end), sampleRate: job.sampleRate });
    left -= end - utterance.start;
  }
  return identifier.compute(stream);
}

function decodeAll(sherpa, recognizer, fd, job) {
  const results = [];
  for (const utterance of job.utterances) {
    const stream = recognizer.createStream();
    stream.acceptWaveform({ samples: readSamples(fd, job, utterance.start, utterance.end), sampleRate: job.sampleRate });
    recognizer.decode(stream);
    const result = recognizer.getResult(stream);
    results.push({
      start: utterance.start,
      end: utterance.end,
      text: result.text || '',
      tokens: result.tokens || [],
      timestamps: result.timestamps || [],
      lang: result.lang || '',
    });
    process.send({ type: 'progress', seconds: utterance.end - utterance.start });
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
      process.send({ type: 'language', lang });
      if (job.config.modelConfig.whisper) job.config.modelConfig.whisper.language = lang;
    }
    let recognizer;
    try {
      recognizer = new sherpa.OfflineRecognizer(job.config);
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
