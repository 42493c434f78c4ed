/**
 * Measures transcribeRecording with the pocketsphinx engine: real-time factor and WER against the
 * reference text next to each WAV (same name, `.txt`). Not a test; run by hand:
 *   npx tsx bench/quality/measure-long-recording.ts [--processes N] [file.wav ...]
 * Default file: long_hifitts6097_concat_16k.wav of ../shared/audio (332.8 s).
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createPocketsphinxEngine, readWavLayout, resolveDefaultVadModelPath, transcribeRecording, wordErrorRate } from '@transcribe/core';
import { LONG_CLIP } from '../support/long-recordings.ts';

const DEFAULT_FILE = LONG_CLIP;

/** Transcribes `wavPath` and prints seconds, RTF and WER as one JSON line. */
async function measure(wavPath: string, processes: number): Promise<void> {
  const { durationSeconds } = await readWavLayout(wavPath);
  const reference = await readFile(wavPath.replace(/\.wav$/, '.txt'), 'utf8');
  const began = performance.now();
  const transcript = await transcribeRecording({
    wavPath,
    durationSeconds,
    formatName: 'wav',
    engine: createPocketsphinxEngine({ processes }),
    vadModelPath: resolveDefaultVadModelPath(),
    language: 'en',
    prompt: null,
    hotwords: [],
    onStage: (line) => process.stderr.write(`  ${line}\n`),
  });
  const seconds = (performance.now() - began) / 1000;
  const hypothesis = transcript.segments.map((segment) => segment.text).join(' ');
  const score = wordErrorRate(reference, hypothesis);
  console.log(
    JSON.stringify({
      file: wavPath.split('/').at(-1),
      audioSeconds: Math.round(durationSeconds * 10) / 10,
      processes,
      wallSeconds: Math.round(seconds * 10) / 10,
      rtf: Math.round((seconds / durationSeconds) * 1000) / 1000,
      ...score,
      wer: Math.round(score.wer * 1000) / 1000,
    }),
  );
  if (process.env.SHOW_TEXT) console.log(hypothesis);
}

const { values, positionals } = parseArgs({ options: { processes: { type: 'string', default: '2' } }, allowPositionals: true });
for (const file of positionals.length > 0 ? positionals : [DEFAULT_FILE]) {
  await measure(file, Number(values.processes));
}
