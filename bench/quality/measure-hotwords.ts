/**
 * The "hotwords" section of bench/results/quality.md: WER of an engine on the LibriVox
 * clips (and FLEURS en-002, which names Sintra and Lord Byron) without hints, with the names of
 * the book as `hotwords`, with a `prompt` naming them, and with unrelated hotwords (which must
 * change nothing). Run alone: `npx tsx bench/quality/measure-hotwords.ts` (PocketSphinx).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createPocketsphinxEngine,
  decodeToPcm,
  type RecognitionEngine,
  resolveDefaultVadModelPath,
  transcribeRecording,
  wordErrorRate,
} from '@transcribe/core';

const AUSTEN = {
  hotwords: ['Dashwood', 'Elinor', 'Marianne', 'Willoughby', 'Norland', 'Ferrars', 'Barton', 'Brandon'],
  prompt: 'Sense and Sensibility by Jane Austen, chapter 1: the Dashwood family of Norland Park.',
};
const CLIPS = [
  ...['0870', '0880', '0890'].map((n) => ({
    clip: `librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-${n}.wav`,
    ...AUSTEN,
  })),
  { clip: 'fleurs/fleurs-en-002.wav', hotwords: ['Sintra', 'Byron'], prompt: 'Travel notes: Sintra, near Lisbon, and Lord Byron.' },
];
const UNRELATED = ['Kubernetes', 'Grafana', 'PostgreSQL', 'OpenAI', 'Telegram', 'Chicago', 'New Jersey', 'Seattle', 'Jennifer', 'Sheila'];

type Hints = { prompt: string | null; hotwords: string[] };

async function measureWer(engine: RecognitionEngine, wavPath: string, durationSeconds: number, reference: string, hints: Hints) {
  const transcript = await transcribeRecording({
    wavPath,
    durationSeconds,
    formatName: 'wav',
    engine,
    vadModelPath: resolveDefaultVadModelPath(),
    language: null,
    ...hints,
  });
  return wordErrorRate(reference, transcript.segments.map((s) => s.text).join(' '));
}

/** One markdown section: per clip WER without hints, with hotwords, with the prompt, with unrelated hotwords. */
export async function measureHotwords(engine: RecognitionEngine, audioDir: string, workDir: string): Promise<string> {
  const rows: string[] = [];
  const totals = [0, 0, 0, 0];
  let words = 0;
  for (const { clip, hotwords, prompt } of CLIPS) {
    const wavPath = join(workDir, 'hotwords.wav');
    const { durationSeconds } = await decodeToPcm(join(audioDir, clip), wavPath);
    const reference = await readFile(join(audioDir, clip.replace(/\.wav$/, '.txt')), 'utf8');
    const conditions: Hints[] = [
      { prompt: null, hotwords: [] },
      { prompt: null, hotwords },
      { prompt, hotwords: [] },
      { prompt: null, hotwords: UNRELATED },
    ];
    const results = [];
    for (const hints of conditions) results.push(await measureWer(engine, wavPath, durationSeconds, reference, hints));
    results.forEach((r, i) => (totals[i]! += r.substitutions + r.deletions + r.insertions));
    words += results[0]!.referenceWords;
    rows.push(
      `| ${clip.split('/').at(-1)} | ${hotwords.join(', ')} | ${results[0]!.referenceWords} | ${results.map((r) => r.wer.toFixed(3)).join(' | ')} |`,
    );
  }
  const overall = totals.map((errors) => (errors / words).toFixed(3)).join(' | ');
  return (
    `### Hotwords and prompt (${engine.name})\n\nContextual spelling correction after recognition (docs/recognition.md, "Hotwords and prompt"). ` +
    `Prompt: the clip's names in a sentence. Unrelated hotwords: ${UNRELATED.join(', ')}.\n\n` +
    `| clip | hotwords | words | WER without | with hotwords | with prompt | with unrelated hotwords |\n| --- | --- | ---: | ---: | ---: | ---: | ---: |\n${rows.join('\n')}\n| all | | ${words} | ${overall} |\n`
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const audioDir = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'audio');
  const workDir = await mkdtemp(join(tmpdir(), 'hotwords-'));
  try {
    console.log(await measureHotwords(createPocketsphinxEngine({ processes: 1 }), audioDir, workDir));
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
