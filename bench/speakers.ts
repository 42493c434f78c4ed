/**
 * Known voices (docs/speakers.md) on the shared clips: each enrolled speaker enrolled from ONE clip, then
 * identified in conversations built from their OTHER clips and from speakers never enrolled; top-1
 * accuracy of the names given, false accepts on never-enrolled speakers, and the threshold's ROC.
 *
 *   npx tsx bench/speakers.ts              # the evaluation (writes bench/results/speakers.md)
 *   npx tsx bench/speakers.ts --calibrate  # the calibration split: CENTRE/SCALE of the built-in features, false accepts per threshold
 *
 * Splits (kept apart by voice: no speaker is in both):
 * - calibration (the built-in features' centre and scale, and the default threshold), 15 voices, one
 *   vector each: FLEURS de/es/fr/pt/en 000–001, ru_deepspeech_smoke, pyannote_sample's two speakers
 *   (its RTTM), stereo_two_speakers' two channels;
 * - evaluation: enrolled LibriVox 0870 (reader "lv"), LibriSpeech 1089-134686-0001 ("ls"), HiFi-TTS clip
 *   #40 ("hifi"); tested on LibriVox 0890 + 0880, LibriSpeech 0000, HiFi-TTS clips #50–#57; never
 *   enrolled: jfk and FLEURS en-002…004.
 * Conversations: the test pieces joined with ffmpeg (one turn per speaker), diarized with the built-in
 * diarizer given the true count (so the measure is of identification, not of counting); each cluster's
 * truth is the speaker whose piece it overlaps most. Built-in features only when no sherpa-onnx
 * speaker-embedding model is installed in MODELS_DIR (the neural rows are then absent).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type KnownVoice,
  addToEmbeddings,
  cosineSimilarity,
  DEFAULT_THRESHOLDS,
  detectSpeech,
  diarizeRecording,
  embedSpeechGroups,
  findVoiceEmbedder,
  matchVoices,
  measureVoiceStatistics,
  resolveDefaultVadModelPath,
} from '@transcribe/core';

const run = promisify(execFile);
const AUDIO = join(import.meta.dirname, '../../shared/audio');
const LV = 'librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb';
const vadModel = resolveDefaultVadModelPath();

async function hifiClips(): Promise<string[]> {
  return (await readdir(join(AUDIO, 'hifitts-6097/clips')))
    .filter((f) => f.endsWith('.wav'))
    .sort()
    .map((f) => `hifitts-6097/clips/${f}`);
}

async function speechOf(path: string) {
  return detectSpeech(path, { modelPath: vadModel });
}

/** One calibration speaker: a name, the recording it comes from, and its raw voice statistics. */
interface CalibrationVoice {
  speaker: string;
  recording: string;
  values: Float64Array;
}

/** The raw statistics of `clip`'s speech (Silero VAD), cut to `within` when given. */
async function statisticsOf(path: string, within?: { start: number; end: number }[]) {
  const speech = await speechOf(path);
  const regions = within
    ? speech.flatMap((s) =>
        within.map((w) => ({ start: Math.max(s.start, w.start), end: Math.min(s.end, w.end) })).filter((r) => r.end - r.start > 0.05),
      )
    : speech;
  return measureVoiceStatistics(path, regions);
}

/** The calibration split's voices, one vector per speaker (none of them is in the evaluation split). */
async function calibrationVoices(work: string): Promise<CalibrationVoice[]> {
  const voices: CalibrationVoice[] = [];
  const add = async (speaker: string, recording: string, path: string, within?: { start: number; end: number }[]) => {
    const values = await statisticsOf(path, within);
    if (values) voices.push({ speaker, recording, values });
  };
  for (const l of ['de', 'es', 'fr', 'pt', 'en'])
    for (const n of ['000', '001']) await add(`fleurs-${l}-${n}`, `fleurs-${l}-${n}`, join(AUDIO, `fleurs/fleurs-${l}-${n}.wav`));
  await add('ru', 'ru', join(AUDIO, 'ru_deepspeech_smoke.wav'));
  const rttm = (await readFile(join(AUDIO, 'multispeaker/pyannote_sample.rttm'), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => line.split(/\s+/));
  for (const speaker of [...new Set(rttm.map((f) => f[7]!))]) {
    const turns = rttm.filter((f) => f[7] === speaker).map((f) => ({ start: Number(f[3]), end: Number(f[3]) + Number(f[4]) }));
    await add(`pyannote-${speaker}`, 'pyannote_sample', join(AUDIO, 'multispeaker/pyannote_sample.wav'), turns);
  }
  for (const [channel, side] of [
    [0, 'left'],
    [1, 'right'],
  ] as const) {
    const wav = join(work, `stereo-${side}.wav`);
    await run('ffmpeg', [
      '-v',
      'error',
      '-i',
      join(AUDIO, 'stereo_two_speakers.wav'),
      '-af',
      `pan=mono|c0=c${channel}`,
      '-ar',
      '16000',
      wav,
    ]);
    await add(`stereo-${side}`, 'stereo_two_speakers', wav);
  }
  return voices;
}

/**
 * The calibration: CENTRE and SCALE of embed-speech-builtin.ts are the mean and standard deviation of
 * the calibration voices' statistics (one vector per speaker, so no voice weighs more than another), and
 * the default threshold is the smallest multiple of 0.05 that no pair of different speakers from
 * different recordings reaches (enrolment and identification are always different recordings; two
 * speakers of one recording share its microphone and room, which these features mostly measure).
 */
async function calibrate(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'bench-speakers-calibrate-'));
  try {
    const voices = await calibrationVoices(work);
    const d = voices[0]!.values.length;
    const centre = Array.from({ length: d }, (_, k) => voices.reduce((s, x) => s + x.values[k]!, 0) / voices.length);
    const scale = centre.map((m, k) => Math.sqrt(voices.reduce((s, x) => s + (x.values[k]! - m) ** 2, 0) / voices.length));
    const fmt = (xs: number[]) => xs.map((x) => Number(x.toFixed(4))).join(', ');
    console.log(`${voices.length} calibration voices: ${voices.map((v) => v.speaker).join(', ')}`);
    console.log(`CENTRE = [${fmt(centre)}]\nSCALE = [${fmt(scale)}]`);
    const z = voices.map((x) => ({ ...x, v: Array.from(x.values, (v, k) => (v - centre[k]!) / scale[k]!) }));
    const pairs: number[] = [];
    for (let i = 0; i < z.length; i += 1)
      for (let j = i + 1; j < z.length; j += 1) if (z[i]!.recording !== z[j]!.recording) pairs.push(cosineSimilarity(z[i]!.v, z[j]!.v));
    pairs.sort((a, b) => b - a);
    console.log(
      `highest similarities of different speakers (different recordings): ${pairs
        .slice(0, 6)
        .map((x) => x.toFixed(3))
        .join(', ')}`,
    );
    console.log('| threshold | different-speaker pairs (different recordings) at or above it |\n| ---: | ---: |');
    for (let t = 0.2; t <= 0.71; t += 0.05) {
      const above = pairs.filter((x) => x >= t).length;
      console.log(`| ${t.toFixed(2)} | ${above} of ${pairs.length} (${((100 * above) / pairs.length).toFixed(1)} %) |`);
    }
    console.log(`threshold (smallest multiple of 0.05 above every pair): ${(Math.floor(pairs[0]! / 0.05 + 1) * 0.05).toFixed(2)}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

interface Piece {
  speaker: string;
  clips: string[];
}

async function evaluate(): Promise<void> {
  const hifi = await hifiClips();
  const embedder = await findVoiceEmbedder(process.env.MODELS_DIR ?? null);
  const kinds = ['builtin', ...(embedder.model ? [embedder.model.name] : [])];
  const enrolled: Record<string, string> = { lv: `${LV}-0870.wav`, ls: 'librispeech-test-clean/1089-134686-0001.wav', hifi: hifi[40]! };
  const test: Record<string, string[]> = {
    lv: [`${LV}-0890.wav`, `${LV}-0880.wav`],
    ls: ['librispeech-test-clean/1089-134686-0000.wav'],
    hifi: hifi.slice(50, 58),
    jfk: ['jfk.wav'],
    ...Object.fromEntries([2, 3, 4].map((n) => [`en${n}`, [`fleurs/fleurs-en-00${n}.wav`]])),
  };
  const conversations: string[][] = [
    ['lv', 'jfk'],
    ['ls', 'en2'],
    ['hifi', 'en3'],
    ['lv', 'ls', 'en4'],
    ['hifi', 'jfk', 'en3'],
    ['en4', 'ls'],
    ['hifi', 'lv'],
    ['en2', 'en3'],
    ['jfk', 'en2'],
    ['ls', 'hifi', 'en4'],
    ['en3', 'lv'],
  ];
  const work = await mkdtemp(join(tmpdir(), 'bench-speakers-'));
  const started = Date.now();
  try {
    const voices: KnownVoice[] = [];
    for (const [name, clip] of Object.entries(enrolled)) {
      const path = join(AUDIO, clip);
      const [embeddings] = await embedSpeechGroups(path, [await speechOf(path)], embedder);
      voices.push({ id: name, name, embeddings: addToEmbeddings({}, embeddings!) });
    }
    // Per cluster: truth, and its similarity to every voice per kind.
    const clusters: { truth: string; similarity: Record<string, Record<string, number>>; vectors: Record<string, Float64Array> }[] = [];
    for (const [c, speakers] of conversations.entries()) {
      const pieces: Piece[] = speakers.map((speaker) => ({ speaker, clips: test[speaker]! }));
      const files = pieces.flatMap((p) => p.clips.map((clip) => join(AUDIO, clip)));
      const wav = join(work, `c${c}.wav`);
      await run('ffmpeg', [
        '-v',
        'error',
        ...files.flatMap((f) => ['-i', f]),
        '-filter_complex',
        `${files.map((_, i) => `[${i}:a]`).join('')}concat=n=${files.length}:v=0:a=1,aresample=16000,aformat=sample_fmts=s16:channel_layouts=mono`,
        wav,
      ]);
      const reference: { start: number; end: number; speaker: string }[] = [];
      let at = 0;
      for (const p of pieces) {
        for (const clip of p.clips) {
          const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', join(AUDIO, clip)]);
          reference.push({ start: at, end: at + Number(stdout), speaker: p.speaker });
          at += Number(stdout);
        }
      }
      const speech = await speechOf(wav);
      const turns = await diarizeRecording({ wavPath: wav, speech, speakers: speakers.length, engine: 'builtin' });
      const labels = [...new Set(turns.map((t) => t.speaker))];
      const groups = labels.map((label) => turns.filter((t) => t.speaker === label));
      const embedded = await embedSpeechGroups(wav, groups, embedder);
      labels.forEach((label, i) => {
        const overlap = new Map<string, number>();
        for (const t of groups[i]!)
          for (const r of reference)
            overlap.set(r.speaker, (overlap.get(r.speaker) ?? 0) + Math.max(0, Math.min(t.end, r.end) - Math.max(t.start, r.start)));
        const truth = [...overlap].sort((a, b) => b[1] - a[1])[0]![0];
        const similarity: Record<string, Record<string, number>> = {};
        const vectors: Record<string, Float64Array> = {};
        for (const e of embedded[i]!) {
          vectors[e.kind] = e.vector;
          similarity[e.kind] = Object.fromEntries(voices.map((v) => [v.name, cosineSimilarity(e.vector, v.embeddings[e.kind]?.sum ?? [])]));
        }
        clusters.push({ truth: `${c}:${truth}`, similarity, vectors });
        void label;
      });
    }
    const lines: string[] = [];
    const conversationOf = (truth: string) => Number(truth.split(':')[0]);
    const speakerOf = (truth: string) => truth.split(':')[1]!;
    for (const kind of kinds) {
      const rows: string[] = [];
      const at = (threshold: number) => {
        let right = 0,
          wrong = 0,
          missed = 0,
          falseAccepts = 0;
        const enrolledClusters = clusters.filter((c) => speakerOf(c.truth) in enrolled).length;
        const strangers = clusters.length - enrolledClusters;
        for (const c of new Set(clusters.map((x) => conversationOf(x.truth)))) {
          const mine = clusters.filter((x) => conversationOf(x.truth) === c && x.vectors[kind]);
          const matches = matchVoices(
            mine.map((x) => ({ label: x.truth, vector: x.vectors[kind]! })),
            voices.map((v) => ({ id: v.id, name: v.name, vector: v.embeddings[kind]!.sum })),
            threshold,
          );
          for (const x of mine) {
            const match = matches.find((m) => m.label === x.truth);
            const known = speakerOf(x.truth) in enrolled;
            if (known && match?.name === speakerOf(x.truth)) right += 1;
            else if (known && match) wrong += 1;
            else if (known) missed += 1;
            else if (match) falseAccepts += 1;
          }
        }
        return { right, wrong, missed, falseAccepts, enrolledClusters, strangers };
      };
      for (let t = 0; t <= 0.951; t += 0.05) {
        const r = at(t);
        rows.push(
          `| ${t.toFixed(2)} | ${r.right}/${r.enrolledClusters} (${pct(r.right, r.enrolledClusters)}) | ${r.wrong} | ${r.missed} | ${r.falseAccepts}/${r.strangers} (${pct(r.falseAccepts, r.strangers)}) |`,
        );
      }
      const chosen = kind === 'builtin' ? DEFAULT_THRESHOLDS.builtin : DEFAULT_THRESHOLDS.neural;
      const r = at(chosen);
      lines.push(
        `### ${kind === 'builtin' ? 'Built-in features (MFCC statistics)' : `sherpa-onnx ${kind}`}`,
        '',
        `At the default threshold **${chosen}**: top-1 accuracy on enrolled speakers' clusters **${pct(r.right, r.enrolledClusters)}** (${r.right} of ${r.enrolledClusters}; ${r.wrong} given a wrong name, ${r.missed} left unnamed); false accepts on never-enrolled speakers **${pct(r.falseAccepts, r.strangers)}** (${r.falseAccepts} of ${r.strangers} clusters).`,
        '',
        'ROC of the threshold (each conversation matched as the service matches: exclusive, optimal, thresholded):',
        '',
        '| threshold | right name (enrolled clusters) | wrong name | unnamed | false accepts (never-enrolled clusters) |',
        '| ---: | ---: | ---: | ---: | ---: |',
        ...rows,
        '',
        'Similarity of each cluster to each voice:',
        '',
        `| conversation: truth | ${voices.map((v) => v.name).join(' | ')} |`,
        `| --- | ${voices.map(() => '---:').join(' | ')} |`,
        ...clusters
          .filter((c) => c.similarity[kind])
          .map((c) => `| ${c.truth} | ${voices.map((v) => c.similarity[kind]![v.name]!.toFixed(3)).join(' | ')} |`),
        '',
      );
    }
    const header = [
      '# Known voices: identification on the shared clips',
      '',
      `\`npx tsx bench/speakers.ts\`, run ${new Date().toISOString().slice(0, 16)} UTC (${((Date.now() - started) / 1000).toFixed(0)} s). Method and splits: the docstring of bench/speakers.ts and docs/speakers.md.`,
      `Enrolled (one clip each): ${Object.entries(enrolled)
        .map(([k, v]) => `${k} = ${v}`)
        .join('; ')}.`,
      `Conversations (pieces joined, built-in diarizer given the count): ${conversations.map((c) => c.join('+')).join(', ')}.`,
      embedder.model ? '' : 'No sherpa-onnx speaker-embedding model is installed on this machine: only the built-in features are measured.',
      '',
    ];
    await mkdir(join(import.meta.dirname, 'results'), { recursive: true });
    await writeFile(join(import.meta.dirname, 'results/speakers.md'), [...header, ...lines].join('\n'));
    console.log([...header, ...lines].join('\n'));
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

function pct(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(0)} %`;
}

if (process.argv.includes('--calibrate')) await calibrate();
else await evaluate();
process.exit(0);
