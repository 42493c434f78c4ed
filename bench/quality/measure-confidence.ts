/**
 * `npx tsx bench/quality/measure-confidence.ts [--clips N] [--fixtures-only]`: how far the service's confidence values
 * and flags can be trusted (docs/formats.md, "Confidence" and "Flags"), printed as the Markdown of
 * the "Confidence and flags" section of bench/results/quality.md.
 * - Calibration: each engine that scores words transcribes the shared English clips with references;
 *   every hypothesis word is aligned to the reference (Levenshtein on normalised words, as WER) and
 *   counts as right when it matches; words are bucketed by confidence (10 buckets of 0.1) and the
 *   expected calibration error is ECE = Σ_b (n_b / N) · |accuracy_b − mean confidence_b|
 *   (Guo et al., "On Calibration of Modern Neural Networks", 2017).
 * - Non-speech: the noise, silence and music clips must give no words, or only flagged segments.
 * - Random-weight sherpa-onnx fixtures (test-support/models: their words are noise): the share of
 *   segments flagged.
 * Only PocketSphinx scores words among the engines on this machine (sherpa-onnx's fixtures are
 * Whisper and SenseVoice, which give no token scores in sherpa-onnx-node 1.13.8).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createPocketsphinxEngine,
  createSherpaOnnxEngine,
  findCatalogModel,
  normalizeForWer,
  readWavLayout,
  type RecognitionEngine,
  resolveDefaultVadModelPath,
  transcribeRecording,
  type Transcript,
} from '@transcribe/core';

const AUDIO = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'audio');
const FIXTURE_MODELS = join(import.meta.dirname, '..', '..', 'packages/core/src/pipeline/recognize/test-support/models');
const clipCount = Number(process.argv[process.argv.indexOf('--clips') + 1]) || 4;

const ENGLISH = [
  'jfk.wav',
  'librispeech-test-clean/1089-134686-0000.wav',
  'librispeech-test-clean/1089-134686-0001.wav',
  'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0870.wav',
  'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0880.wav',
  'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-0890.wav',
].slice(0, clipCount);
const NON_SPEECH = [
  'nonspeech/generated_white_noise_10s.wav',
  'nonspeech/generated_digital_silence_10s.wav',
  'nonspeech/pisets_no_speech.wav',
  'music/brahms_hungarian_dance_5_us_army_strings_16k.wav',
];

async function transcribe(engine: RecognitionEngine, clip: string): Promise<Transcript> {
  const wavPath = join(AUDIO, clip);
  const { durationSeconds } = await readWavLayout(wavPath);
  return transcribeRecording({
    wavPath,
    durationSeconds,
    formatName: 'wav',
    engine,
    vadModelPath: resolveDefaultVadModelPath(),
    language: 'en',
    prompt: null,
    hotwords: [],
  });
}

/** For each hypothesis word: whether the minimum-edit alignment matches it to the same reference word. */
function markRightWords(reference: string[], hypothesis: string[]): boolean[] {
  const rows = reference.length + 1;
  const cols = hypothesis.length + 1;
  const cost = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++)
    for (let j = 1; j < cols; j++) {
      const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1;
      cost[i]![j] = Math.min(cost[i - 1]![j - 1]! + same, cost[i - 1]![j]! + 1, cost[i]![j - 1]! + 1);
    }
  const right = new Array<boolean>(hypothesis.length).fill(false);
  let i = reference.length;
  let j = hypothesis.length;
  while (i > 0 && j > 0) {
    const same = reference[i - 1] === hypothesis[j - 1] ? 0 : 1;
    if (cost[i]![j] === cost[i - 1]![j - 1]! + same) {
      right[j - 1] = same === 0;
      i--;
      j--;
    } else if (cost[i]![j] === cost[i - 1]![j]! + 1) i--;
    else j--;
  }
  return right;
}

async function calibration(name: string, engine: RecognitionEngine): Promise<string[]> {
  const scored: Array<{ confidence: number; right: boolean }> = [];
  let unscored = 0;
  let segments = 0;
  let flagged = 0;
  for (const clip of ENGLISH) {
    const transcript = await transcribe(engine, clip);
    const reference = normalizeForWer(await readFile(join(AUDIO, clip.replace(/\.wav$/, '.txt')), 'utf8'))
      .split(' ')
      .filter(Boolean);
    const words = transcript.segments.flatMap((segment) => segment.words);
    // align word by word: a hypothesis word's text normalises to one token (or none, punctuation)
    const tokens = words.map((word) => normalizeForWer(word.text));
    const kept = words.filter((_, k) => tokens[k] !== '');
    const right = markRightWords(
      reference,
      tokens.filter((token) => token !== ''),
    );
    kept.forEach((word, k) => {
      if (word.confidence === null) unscored++;
      else scored.push({ confidence: word.confidence, right: right[k]! });
    });
    segments += transcript.segments.length;
    flagged += transcript.segments.filter((segment) => (segment.flags ?? []).length > 0).length;
    process.stderr.write(`${name} ${clip}: ${words.length} words\n`);
  }
  const lines = [
    `**${name}** on ${ENGLISH.length} clips: ${scored.length} scored words, ${unscored} without a score; ${flagged} of ${segments} segments flagged.`,
    '',
  ];
  lines.push('| confidence | words | mean confidence | right (aligned to the reference) |', '|---|---|---|---|');
  let ece = 0;
  for (let b = 0; b < 10; b++) {
    const bucket = scored.filter((w) => Math.min(9, Math.floor(w.confidence * 10)) === b);
    if (bucket.length === 0) continue;
    const mean = bucket.reduce((s, w) => s + w.confidence, 0) / bucket.length;
    const accuracy = bucket.filter((w) => w.right).length / bucket.length;
    ece += (bucket.length / scored.length) * Math.abs(accuracy - mean);
    lines.push(
      `| ${(b / 10).toFixed(1)}–${((b + 1) / 10).toFixed(1)} | ${bucket.length} | ${mean.toFixed(3)} | ${(accuracy * 100).toFixed(1)} % |`,
    );
  }
  lines.push('', `Expected calibration error: **${scored.length === 0 ? 'n/a' : ece.toFixed(3)}**.`, '');
  return lines;
}

async function nonSpeech(engine: RecognitionEngine): Promise<string[]> {
  const lines = ['| clip | segments | words | flagged segments |', '|---|---|---|---|'];
  for (const clip of NON_SPEECH) {
    const transcript = await transcribe(engine, clip);
    const words = transcript.segments.reduce((n, segment) => n + segment.words.length, 0);
    const flagged = transcript.segments.filter((segment) => (segment.flags ?? []).length > 0).length;
    lines.push(`| ${clip} | ${transcript.segments.length} | ${words} | ${flagged} |`);
  }
  return lines;
}

async function fixtures(): Promise<string[]> {
  const lines = ['| fixture model | clip | segments | flagged | flags seen |', '|---|---|---|---|---|'];
  for (const name of ['sherpa-onnx-whisper-tiny', 'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17']) {
    const engine = createSherpaOnnxEngine({ modelsDir: FIXTURE_MODELS, models: [findCatalogModel(name)!], maxThreads: 1 });
    for (const clip of ENGLISH.slice(0, 2)) {
      const transcript = await transcribe(engine, clip);
      const flagged = transcript.segments.filter((segment) => (segment.flags ?? []).length > 0);
      const seen = [...new Set(flagged.flatMap((segment) => segment.flags ?? []))].join(', ') || '–';
      lines.push(`| ${name} | ${clip} | ${transcript.segments.length} | ${flagged.length} | ${seen} |`);
    }
  }
  return lines;
}

const started = Date.now();
const only = process.argv.includes('--fixtures-only');
const out = ['## Confidence and flags', ''];
if (!only) {
  out.push('### Calibration of word confidence', '', ...(await calibration('pocketsphinx', createPocketsphinxEngine())));
  out.push('### Non-speech clips (pocketsphinx)', '', ...(await nonSpeech(createPocketsphinxEngine())), '');
}
out.push('### Random-weight sherpa-onnx fixtures', '', ...(await fixtures()), '');
out.push(`(${((Date.now() - started) / 1000).toFixed(0)} s on this machine.)`);
console.log(out.join('\n'));
