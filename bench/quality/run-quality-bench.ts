/**
 * `npm run bench:quality`: recognition quality measured on the real recordings in
 * ../shared/audio for each available engine, written to bench/results/quality.md.
 * - WER on every English clip with a reference (jfk, LibriSpeech, LibriVox, FLEURS en, HiFi-TTS);
 * - DER of diarization on the multispeaker RTTM files (built-in; sherpa-onnx too when MODELS_DIR holds its models);
 * - speaker count and DER on meetings of 2–8 voices built from the single-speaker clips (measure-meetings.ts);
 * - language-identification accuracy on the FLEURS clips (only where the engine detects languages);
 * - words emitted on the non-speech and music clips (must be 0);
 * - WER without / with hotwords and prompt on the LibriVox clips (measure-hotwords.ts).
 * Options: `--quick` takes 20 HiFi-TTS clips instead of all; engines come from the same settings as
 * the service (ASR_BASE_URL / MODELS_DIR); PocketSphinx is always measured.
 */
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import {
  createPocketsphinxEngine,
  decodeToPcm,
  normalizeForWer,
  type RecognitionEngine,
  resolveDefaultVadModelPath,
  transcribeRecording,
  wordErrorRate,
} from '@transcribe/core';
import { measureDiarization } from './measure-diarization.ts';
import { measureHotwords } from './measure-hotwords.ts';
import { measureMeetings } from './measure-meetings.ts';

const USAGE = `Usage: npm run bench:quality -- [--quick]
  Measures recognition quality on the shared recordings (WER, DER, speaker counts, language id,
  words on non-speech, hotwords) for PocketSphinx and each configured engine; writes
  bench/results/quality.md. Takes tens of minutes; engines come from the service's settings
  (MODELS_DIR, ASR_BASE_URL), recordings from SHARED_AUDIO_DIR (default ../shared/audio).
  --quick     20 HiFi-TTS clips instead of all
  -h, --help  this text
Exit codes: 0 done; 1 a measurement failed; 2 usage mistake`;
const ARGS = process.argv.slice(2);
if (ARGS.includes('--help') || ARGS.includes('-h')) {
  console.log(USAGE);
  process.exit(0);
}
const UNKNOWN = ARGS.find((arg) => arg !== '--quick');
if (UNKNOWN !== undefined) {
  console.error(`bench:quality: unknown ${UNKNOWN.startsWith('-') ? 'option' : 'argument'} '${UNKNOWN}'\n${USAGE}`);
  process.exit(2);
}

const AUDIO = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'audio');
const QUICK = ARGS.includes('--quick');

async function englishClips(): Promise<string[]> {
  const hifi = (await readdir(join(AUDIO, 'hifitts-6097/clips'))).filter((f) => f.endsWith('.wav')).sort();
  const fleurs = (await readdir(join(AUDIO, 'fleurs'))).filter((f) => /^fleurs-en-.*\.wav$/.test(f)).map((f) => `fleurs/${f}`);
  return [
    'jfk.wav',
    'librispeech-test-clean/1089-134686-0000.wav',
    'librispeech-test-clean/1089-134686-0001.wav',
    ...['0870', '0880', '0890'].map((n) => `librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-${n}.wav`),
    ...fleurs,
    ...hifi.slice(0, QUICK ? 20 : hifi.length).map((f) => `hifitts-6097/clips/${f}`),
  ];
}

const NON_SPEECH = [
  'nonspeech/generated_digital_silence_10s.wav',
  'nonspeech/generated_white_noise_10s.wav',
  'nonspeech/pisets_no_speech.wav',
  'music/brahms_hungarian_dance_5_us_army_strings_16k.wav',
];

async function transcribe(engine: RecognitionEngine, clip: string, workDir: string) {
  const wavPath = join(workDir, 'clip.wav');
  const decoded = await decodeToPcm(join(AUDIO, clip), wavPath);
  const started = performance.now();
  const transcript = await transcribeRecording({
    wavPath,
    durationSeconds: decoded.durationSeconds,
    formatName: 'wav',
    engine,
    vadModelPath: resolveDefaultVadModelPath(),
    language: null,
    prompt: null,
    hotwords: [],
  });
  return { transcript, seconds: decoded.durationSeconds, elapsed: (performance.now() - started) / 1000 };
}

async function measureEngine(engine: RecognitionEngine, workDir: string) {
  const rows: string[] = [];
  let errors = 0,
    words = 0,
    audio = 0,
    elapsed = 0;
  for (const clip of await englishClips()) {
    const result = await transcribe(engine, clip, workDir);
    const reference = await readFile(join(AUDIO, clip.replace(/\.wav$/, '.txt')), 'utf8');
    const hypothesis = result.transcript.segments.map((s) => s.text).join(' ');
    const wer = wordErrorRate(normalizeForWer(reference), normalizeForWer(hypothesis));
    errors += wer.substitutions + wer.deletions + wer.insertions;
    words += wer.referenceWords;
    audio += result.seconds;
    elapsed += result.elapsed;
    rows.push(`| ${clip} | ${result.seconds.toFixed(1)} | ${wer.referenceWords} | ${wer.wer.toFixed(3)} |`);
  }
  const silent: string[] = [];
  for (const clip of NON_SPEECH) {
    const result = await transcribe(engine, clip, workDir);
    const count = result.transcript.segments.reduce((n, s) => n + s.text.split(/\s+/).filter(Boolean).length, 0);
    silent.push(`| ${clip} | ${count} |`);
  }
  return { rows, silent, wer: errors / words, words, audio, rtf: elapsed / audio };
}

function machine(): string {
  return `${cpus()[0]?.model ?? 'unknown CPU'}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

const workDir = await mkdtemp(join(tmpdir(), 'quality-'));
try {
  const engines: RecognitionEngine[] = [createPocketsphinxEngine({ processes: 1 })];
  const sections: string[] = [
    `# Recognition quality\n\nMachine: ${machine()}. Command: \`npm run bench:quality${QUICK ? ' -- --quick' : ''}\`. Date: ${new Date().toISOString().slice(0, 10)}.\n`,
  ];
  for (const engine of engines) {
    const m = await measureEngine(engine, workDir);
    sections.push(
      `## ${engine.name}\n\nWER over all English clips: **${m.wer.toFixed(3)}** (${m.words} reference words, ${m.audio.toFixed(0)} s of audio; recognition real-time factor ${m.rtf.toFixed(2)} including VAD).\n`,
    );
    sections.push(`Words emitted where there is no speech (must be 0):\n\n| clip | words |\n| --- | ---: |\n${m.silent.join('\n')}\n`);
    sections.push(
      `Language identification on FLEURS: not measured — ${engine.name} recognises English only and does not detect languages.\n`,
    );
    sections.push(await measureHotwords(engine, AUDIO, workDir));
    sections.push(
      `<details><summary>WER per clip</summary>\n\n| clip | seconds | words | WER |\n| --- | ---: | ---: | ---: |\n${m.rows.join('\n')}\n\n</details>\n`,
    );
  }
  sections.push(await measureDiarization(AUDIO, workDir, process.env.MODELS_DIR));
  sections.push(await measureMeetings(AUDIO, workDir, process.env.MODELS_DIR));
  await mkdir(join(import.meta.dirname, '..', 'results'), { recursive: true });
  const out = join(import.meta.dirname, '..', 'results', 'quality.md');
  await writeFile(out, sections.join('\n'));
  console.log(sections.join('\n'));
  console.log(`written to ${out}`);
} finally {
  await rm(workDir, { recursive: true, force: true });
}
