/**
 * Calibration of the engines' word confidences and of the segment flags against the references of
 * ../shared/audio (docs/formats.md, "Confidence" and "Flags"); writes bench/results/confidence.md.
 *
 *   npx tsx bench/confidence.ts        # or `npm run bench -- confidence`
 *
 * - Recordings: every English clip with a reference (jfk, LibriSpeech 2, LibriVox 3, FLEURS en 5,
 *   HiFi-TTS 6097's 116; shared/audio/SOURCES.md), sorted by path and split alternately: even
 *   positions are the calibration half (the only data any constant is fitted on), odd positions
 *   the held-out half. Every figure is given for both halves.
 * - Alignment: each hypothesis word (normalizeForWer, split into tokens; a word is right when all
 *   its tokens are) is matched to the reference by minimum edits (markRightWords, as WER).
 * - Reliability: words in 10 bins of confidence, the share right in each, and the expected
 *   calibration error (expectedCalibrationError); for PocketSphinx the raw lattice posteriors and
 *   the calibrated probabilities the engine now reports (POCKETSPHINX_CALIBRATION, Platt scaling
 *   on ln posterior fitted here on the calibration half; the script prints the fit it finds and says
 *   whether the shipped constants still match it).
 * - Flags: how often each flag fires on segments whose words are all right, partly wrong (under
 *   half) and mostly wrong (half or more), with the raw posteriors (the old behaviour) and with the
 *   calibrated ones (the old behaviour: raw, Whisper's −1; the new: calibrated, PocketSphinx's own
 *   limit ln 0.5, POCKETSPHINX_LOW_LOGPROB_LIMIT); words wrong in flagged vs unflagged segments;
 *   and a sweep of the `low_logprob` limit on calibrated avg_logprob.
 * - sherpa-onnx: the random-weight fixture models (Whisper tiny, SenseVoice, NeMo TDT transducer) are
 *   run on two clips: whether they give scores at all, and that the flags fire on their noise output.
 *   CONFIDENCE_BENCH_FIXTURES_ONLY=1 prints only this table (nothing decoded with PocketSphinx, no
 *   result file written).
 * CONFIDENCE_BENCH_CACHE=<file>: keep PocketSphinx's raw transcripts there and reuse them (for
 * re-running the analysis without decoding again); absent, everything is measured afresh.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assessSegments,
  createPocketsphinxEngine,
  createSherpaOnnxEngine,
  DEFAULT_FLAG_THRESHOLDS,
  expectedCalibrationError,
  findCatalogModel,
  fitPlattScaling,
  markRightWords,
  normalizeForWer,
  POCKETSPHINX_CALIBRATION,
  POCKETSPHINX_LOW_LOGPROB_LIMIT,
  pocketsphinxCalibratedConfidence,
  pocketsphinxPosteriorFeature,
  plattProbability,
  type PlattScaling,
  readWavLayout,
  type RecognitionEngine,
  reliabilityBins,
  resolveDefaultVadModelPath,
  type ScoredWord,
  SEGMENT_FLAGS,
  type SpeechScores,
  transcribeRecording,
  type TranscriptSegment,
  type VadInterval,
} from '@transcribe/core';
import { fixed, writeResult } from './support/bench-kit.ts';

const AUDIO = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', 'shared', 'audio');
const FIXTURE_MODELS = join(import.meta.dirname, '..', 'packages/core/src/pipeline/recognize/test-support/models');
const CACHE = process.env.CONFIDENCE_BENCH_CACHE;
const started = performance.now();

/** Every English clip with a reference, sorted by path. */
async function englishClips(): Promise<string[]> {
  const hifi = (await readdir(join(AUDIO, 'hifitts-6097/clips'))).filter((f) => f.endsWith('.wav')).map((f) => `hifitts-6097/clips/${f}`);
  const fleurs = (await readdir(join(AUDIO, 'fleurs'))).filter((f) => /^fleurs-en-.*\.wav$/.test(f)).map((f) => `fleurs/${f}`);
  return [
    'jfk.wav',
    'librispeech-test-clean/1089-134686-0000.wav',
    'librispeech-test-clean/1089-134686-0001.wav',
    ...['0870', '0880', '0890'].map((n) => `librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-${n}.wav`),
    ...fleurs,
    ...hifi,
  ].sort();
}

/** What a recording's flags are measured against: the VAD's speech and window scores (seconds, on the joined file's clock). */
interface Evidence {
  speech: VadInterval[];
  scores: { windowSeconds: number; probabilities: number[] };
}

/** One recording as the engine transcribed it, with what the flags are measured against. */
interface Recorded {
  clip: string;
  reference: string[];
  segments: TranscriptSegment[];
  evidence: Evidence;
}

async function transcribeFile(engine: RecognitionEngine, wavPath: string) {
  const { durationSeconds } = await readWavLayout(wavPath);
  let scores: SpeechScores | null = null;
  const transcript = await transcribeRecording({
    wavPath,
    durationSeconds,
    formatName: 'wav',
    engine,
    vadModelPath: resolveDefaultVadModelPath(),
    language: 'en',
    prompt: null,
    hotwords: [],
    onSpeech: (_speech, _quiet, found) => (scores = found),
  });
  const measured = scores as SpeechScores | null;
  const evidence: Evidence = {
    speech: transcript.vad,
    scores: { windowSeconds: measured?.windowSeconds ?? 0.032, probabilities: [...(measured?.probabilities ?? [])] },
  };
  return { segments: transcript.segments, evidence };
}

async function referenceOf(clip: string): Promise<string[]> {
  return tokens(await readFile(join(AUDIO, clip.replace(/\.wav$/, '.txt')), 'utf8'));
}

/** Digital silence between joined clips, seconds: more than the utterance planner's padding and merge gap, so no utterance spans two clips. */
const GAP_SECONDS = 2;

/**
 * Transcribes all clips as ONE file (16 kHz mono s16le, each clip followed by GAP_SECONDS of
 * silence) so the engine starts once, not once per clip (127 starts cost more than the decoding on
 * a loaded 2-core machine); each segment then goes back to the clip its midpoint lies in.
 */
async function transcribeJoined(engine: RecognitionEngine, clips: string[]): Promise<Recorded[]> {
  const gap = Buffer.alloc(GAP_SECONDS * 16000 * 2);
  const parts: Buffer[] = [];
  const spans: Array<{ clip: string; start: number; end: number }> = [];
  let at = 0;
  for (const clip of clips) {
    const path = join(AUDIO, clip);
    const layout = await readWavLayout(path);
    if (layout.sampleRate !== 16000 || layout.channels !== 1 || layout.bitsPerSample !== 16)
      throw new Error(`${clip} is not 16 kHz mono s16le`);
    const data = (await readFile(path)).subarray(layout.dataOffset, layout.dataOffset + layout.dataBytes);
    parts.push(data, gap);
    spans.push({ clip, start: at, end: at + data.length / 32000 });
    at += (data.length + gap.length) / 32000;
  }
  const body = Buffer.concat(parts);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + body.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(32000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(body.length, 40);
  const dir = await mkdtemp(join(tmpdir(), 'confidence-'));
  try {
    const wavPath = join(dir, 'joined.wav');
    await writeFile(wavPath, Buffer.concat([header, body]));
    const { segments, evidence } = await transcribeFile(engine, wavPath);
    const recordings: Recorded[] = [];
    for (const [k, span] of spans.entries()) {
      const next = spans[k + 1]?.start ?? Infinity;
      const mine = segments.filter((segment) => {
        const middle = (segment.start + segment.end) / 2;
        return middle >= span.start - (k === 0 ? Infinity : 0) && middle < next;
      });
      recordings.push({ clip: span.clip, reference: await referenceOf(span.clip), segments: mine, evidence });
    }
    return recordings;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function tokens(text: string): string[] {
  const normalized = normalizeForWer(text);
  return normalized === '' ? [] : normalized.split(' ');
}

/** A hypothesis word aligned to the reference: its raw score and whether it is right. */
interface AlignedWord {
  raw: number | null;
  right: boolean;
}

/** Per segment of a recording, its words aligned to the whole recording's reference. */
function alignRecording(recorded: Recorded): AlignedWord[][] {
  const perWord = recorded.segments.flatMap((segment, s) => segment.words.map((word) => ({ s, word, parts: tokens(word.text) })));
  const flat = perWord.flatMap((entry) => entry.parts);
  const right = markRightWords(recorded.reference, flat);
  const aligned: AlignedWord[][] = recorded.segments.map(() => []);
  let k = 0;
  for (const entry of perWord) {
    if (entry.parts.length === 0) continue; // punctuation only: not a word of the alignment
    const isRight = right.slice(k, k + entry.parts.length).every(Boolean);
    k += entry.parts.length;
    aligned[entry.s]!.push({ raw: entry.word.confidence, right: isRight });
  }
  return aligned;
}

/** The segment with calibrated word confidences and avg_logprob, assessed again at the default limits. */
function calibrateSegment(segment: TranscriptSegment): TranscriptSegment {
  const words = segment.words.map((word) => ({
    ...word,
    confidence: word.confidence === null ? null : pocketsphinxCalibratedConfidence(word.confidence),
  }));
  const scored = words.filter((word) => word.confidence !== null).map((word) => word.confidence!);
  const avgLogprob = scored.length === 0 ? null : scored.reduce((sum, p) => sum + Math.log(p), 0) / scored.length;
  return { ...segment, words, avgLogprob };
}

function assess(recorded: Recorded, segments: TranscriptSegment[], logprobBelow = POCKETSPHINX_LOW_LOGPROB_LIMIT) {
  const { scores, speech } = recorded.evidence;
  const windows = { windowSeconds: scores.windowSeconds, probabilities: Float32Array.from(scores.probabilities) };
  return assessSegments(segments, { scores: windows, speech, thresholds: { ...DEFAULT_FLAG_THRESHOLDS, logprobBelow } });
}

type SegmentClass = 'all right' | 'partly wrong' | 'mostly wrong';
const CLASSES: SegmentClass[] = ['all right', 'partly wrong', 'mostly wrong'];

function classify(words: AlignedWord[]): SegmentClass {
  const wrong = words.filter((word) => !word.right).length;
  return wrong === 0 ? 'all right' : wrong / words.length < 0.5 ? 'partly wrong' : 'mostly wrong';
}

interface Half {
  name: string;
  recordings: Recorded[];
}

function reliabilityTable(words: ScoredWord[]): string[] {
  const lines = ['| confidence | words | mean confidence | right |', '|---|---:|---:|---:|'];
  for (const bin of reliabilityBins(words))
    lines.push(
      `| ${bin.lower.toFixed(1)}–${bin.upper.toFixed(1)} | ${bin.count} | ${bin.meanConfidence.toFixed(3)} | ${(bin.accuracy * 100).toFixed(1)} % |`,
    );
  return lines;
}

function wordsOf(half: Half, calibrated: boolean): ScoredWord[] {
  return half.recordings.flatMap((recorded) =>
    alignRecording(recorded)
      .flat()
      .filter((word) => word.raw !== null)
      .map((word) => ({ confidence: calibrated ? pocketsphinxCalibratedConfidence(word.raw!) : word.raw!, right: word.right })),
  );
}

/** Flag firing per segment class: rows of flags, columns of classes (fired / segments). */
function flagTable(half: Half, mode: 'raw' | 'calibrated'): string[] {
  const counts = new Map<string, number>();
  const totals = new Map<SegmentClass, number>();
  const words = { flagged: 0, flaggedWrong: 0, clear: 0, clearWrong: 0 };
  for (const recorded of half.recordings) {
    const aligned = alignRecording(recorded);
    const segments =
      mode === 'raw'
        ? recorded.segments
        : assess(
            recorded,
            recorded.segments.map((s) => calibrateSegment(s)),
          );
    segments.forEach((segment, s) => {
      if (aligned[s]!.length === 0) return;
      const cls = classify(aligned[s]!);
      totals.set(cls, (totals.get(cls) ?? 0) + 1);
      const wrong = aligned[s]!.filter((word) => !word.right).length;
      if ((segment.flags ?? []).length > 0) {
        words.flagged += aligned[s]!.length;
        words.flaggedWrong += wrong;
      } else {
        words.clear += aligned[s]!.length;
        words.clearWrong += wrong;
      }
      for (const flag of [...(segment.flags ?? []), ...((segment.flags ?? []).length > 0 ? ['any flag'] : [])])
        counts.set(`${flag}|${cls}`, (counts.get(`${flag}|${cls}`) ?? 0) + 1);
    });
  }
  const header = `| flag | ${CLASSES.map((cls) => `${cls} (${totals.get(cls) ?? 0})`).join(' | ')} |`;
  const lines = [header, `|---|${CLASSES.map(() => '---:').join('|')}|`];
  for (const flag of [...SEGMENT_FLAGS, 'any flag']) {
    const cells = CLASSES.map((cls) => {
      const total = totals.get(cls) ?? 0;
      const fired = counts.get(`${flag}|${cls}`) ?? 0;
      return total === 0 ? '—' : `${fired} (${((fired / total) * 100).toFixed(0)} %)`;
    });
    lines.push(`| \`${flag}\` | ${cells.join(' | ')} |`);
  }
  const share = (wrong: number, all: number) => (all === 0 ? '—' : `${((wrong / all) * 100).toFixed(1)} %`);
  lines.push(
    '',
    `Words wrong in flagged segments: ${share(words.flaggedWrong, words.flagged)} of ${words.flagged}; in unflagged segments: ${share(words.clearWrong, words.clear)} of ${words.clear}.`,
  );
  return lines;
}

/**
 * How well a segment's avg_logprob ranks the mostly-wrong segments below the others: the area under
 * the ROC curve (the chance that a random mostly-wrong segment scores lower than a random other one;
 * 0.5 is no better than chance).
 */
function segmentAuc(half: Half, mode: 'raw' | 'calibrated'): number | null {
  const scored: Array<{ score: number; bad: boolean }> = [];
  for (const recorded of half.recordings) {
    const aligned = alignRecording(recorded);
    recorded.segments.forEach((segment, s) => {
      const words = aligned[s]!;
      const score = (mode === 'raw' ? segment : calibrateSegment(segment)).avgLogprob;
      if (words.length === 0 || score === null || score === undefined) return;
      scored.push({ score, bad: classify(words) === 'mostly wrong' });
    });
  }
  const bad = scored.filter((s) => s.bad);
  const good = scored.filter((s) => !s.bad);
  if (bad.length === 0 || good.length === 0) return null;
  let wins = 0;
  for (const b of bad) for (const g of good) wins += b.score < g.score ? 1 : b.score === g.score ? 0.5 : 0;
  return wins / (bad.length * good.length);
}

/** `low_logprob` on calibrated avg_logprob at several limits: fired on all-right vs mostly-wrong segments. */
function sweepTable(halves: Half[]): string[] {
  const limits = [-0.4, -0.5, -0.6, POCKETSPHINX_LOW_LOGPROB_LIMIT, -0.8, -0.9, -1];
  const lines = [
    `| limit | ${halves.map((h) => `${h.name}: all right / partly / mostly wrong flagged`).join(' | ')} |`,
    `|---:|${halves.map(() => '---').join('|')}|`,
  ];
  for (const limit of limits) {
    const cells = halves.map((half) => {
      const fired = new Map<SegmentClass, number>();
      const total = new Map<SegmentClass, number>();
      for (const recorded of half.recordings) {
        const aligned = alignRecording(recorded);
        const segments = assess(
          recorded,
          recorded.segments.map((s) => calibrateSegment(s)),
          limit,
        );
        segments.forEach((segment, s) => {
          if (aligned[s]!.length === 0) return;
          const cls = classify(aligned[s]!);
          total.set(cls, (total.get(cls) ?? 0) + 1);
          if (segment.flags?.includes('low_logprob')) fired.set(cls, (fired.get(cls) ?? 0) + 1);
        });
      }
      return CLASSES.map((cls) => `${(((fired.get(cls) ?? 0) / Math.max(1, total.get(cls) ?? 0)) * 100).toFixed(0)} %`).join(' / ');
    });
    const note =
      limit === POCKETSPHINX_LOW_LOGPROB_LIMIT
        ? " (ln 0.5, PocketSphinx's limit)"
        : limit === DEFAULT_FLAG_THRESHOLDS.logprobBelow
          ? " (Whisper's)"
          : '';
    lines.push(`| ${fixed(limit, 3)}${note} | ${cells.join(' | ')} |`);
  }
  return lines;
}

const CACHE_USED = CACHE !== undefined && existsSync(CACHE);

async function pocketsphinxRecordings(clips: string[]): Promise<Recorded[]> {
  if (CACHE && CACHE_USED) {
    const cached = JSON.parse(await readFile(CACHE, 'utf8')) as { evidence: Evidence; recordings: Array<Omit<Recorded, 'evidence'>> };
    return cached.recordings.map((recorded) => ({ ...recorded, evidence: cached.evidence }));
  }
  // raw lattice posteriors: the calibration is applied (and fitted) here; a loaded machine is slow, not wrong
  const recordings = await transcribeJoined(createPocketsphinxEngine({ calibration: null, timeoutFactor: 100 }), clips);
  if (CACHE)
    await writeFile(
      CACHE,
      JSON.stringify({ evidence: recordings[0]?.evidence, recordings: recordings.map(({ evidence: _evidence, ...rest }) => rest) }),
    );
  return recordings;
}

/** The random-weight fixture models, one per family whose result shape differs (token scores or not). */
const FIXTURE_NAMES = [
  'sherpa-onnx-whisper-tiny',
  'sherpa-onnx-sense-voice-zh-en-ja-ko-yue-2024-07-17',
  'sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8',
];

/** How many of `segments` carry each flag, e.g. `low_logprob 2, repetition 1`, or – when none. */
function flagCounts(segments: readonly TranscriptSegment[]): string {
  const counts = SEGMENT_FLAGS.map((flag) => [flag, segments.filter((segment) => segment.flags?.includes(flag)).length] as const);
  return (
    counts
      .filter(([, count]) => count > 0)
      .map(([flag, count]) => `${flag} ${count}`)
      .join(', ') || '–'
  );
}

async function fixtures(clips: string[]): Promise<string[]> {
  const lines = [
    '| fixture model | clip | segments | words | words with a score | word probability min – max | segments with avg_logprob | avg_logprob min – max | flagged segments | flags (segments) |',
    '|---|---|---:|---:|---:|---|---:|---|---:|---|',
  ];
  const range = (values: number[], places: number) =>
    values.length === 0 ? '–' : `${fixed(Math.min(...values), places)} – ${fixed(Math.max(...values), places)}`;
  for (const name of FIXTURE_NAMES) {
    const engine = createSherpaOnnxEngine({ modelsDir: FIXTURE_MODELS, models: [findCatalogModel(name)!], maxThreads: 1 });
    for (const clip of clips) {
      const { segments } = await transcribeFile(engine, join(AUDIO, clip));
      const words = segments.flatMap((segment) => segment.words);
      const scores = words.flatMap((word) => (word.confidence === null ? [] : [word.confidence]));
      const logprobs = segments.flatMap((segment) =>
        segment.avgLogprob === null || segment.avgLogprob === undefined ? [] : [segment.avgLogprob],
      );
      const flagged = segments.filter((segment) => (segment.flags ?? []).length > 0);
      lines.push(
        `| ${name} | ${clip} | ${segments.length} | ${words.length} | ${scores.length} | ${range(scores, 3)} | ${logprobs.length} | ${range(logprobs, 3)} | ${flagged.length} | ${flagCounts(segments)} |`,
      );
    }
  }
  return lines;
}

const clips = await englishClips();
const FIXTURE_CLIPS = clips.filter((clip) => clip === 'jfk.wav' || clip.startsWith('librispeech')).slice(0, 2);
if (process.env.CONFIDENCE_BENCH_FIXTURES_ONLY) {
  console.log((await fixtures(FIXTURE_CLIPS)).join('\n'));
  process.exit(0); // a bench script, never reached by tests: skip the PocketSphinx part
}
const recordings = await pocketsphinxRecordings(clips);
const halves: Half[] = [
  { name: 'calibration half', recordings: recordings.filter((_, k) => k % 2 === 0) },
  { name: 'held-out half', recordings: recordings.filter((_, k) => k % 2 === 1) },
];
/** Mean negative log-likelihood of the right / wrong labels under `scaling` of `feature` (natural log). */
function logLoss(words: ScoredWord[], feature: (posterior: number) => number, scaling: PlattScaling): number {
  return (
    -words.reduce((sum, word) => {
      const p = plattProbability(feature(word.confidence), scaling);
      return sum + Math.log(word.right ? p : 1 - p);
    }, 0) / words.length
  );
}

// the shipped feature (log-odds) against the other candidate, ln posterior: chosen by the calibration half's log-loss
const FEATURES: Array<[string, (posterior: number) => number]> = [
  ['ln(p/(1−p))', pocketsphinxPosteriorFeature],
  ['ln p', (posterior) => Math.log(Math.max(0.001, posterior))],
];
const calibrationWords = wordsOf(halves[0]!, false);
const candidates = FEATURES.map(([name, feature]) => {
  const scaling = fitPlattScaling(calibrationWords.map((word) => ({ feature: feature(word.confidence), right: word.right })));
  return { name, scaling, losses: halves.map((half) => logLoss(wordsOf(half, false), feature, scaling)) };
});
const fitted = candidates[0]!.scaling;
const shippedMatches =
  Math.abs(fitted.intercept - POCKETSPHINX_CALIBRATION.intercept) < 0.005 &&
  Math.abs(fitted.slope - POCKETSPHINX_CALIBRATION.slope) < 0.005;
const out: string[] = [
  '# Confidence calibration and flags',
  '',
  `Script: \`bench/confidence.ts\`. Recordings: the ${clips.length} English clips of ../shared/audio with a reference, sorted by path and split alternately: ` +
    `calibration half ${halves[0]!.recordings.length} clips (even positions; the only data fitted on), held-out half ${halves[1]!.recordings.length} (odd positions). ` +
    'Each hypothesis word is aligned to the reference by minimum edits (as WER) and counts as right when it matches.',
  '',
  '## PocketSphinx',
  '',
  'Raw score: the word posterior of the recognition lattice (pocketsphinx_batch `-ctm`). Reported score: ' +
    `Platt scaling of it, p = 1 / (1 + exp(−(a + b · ln(q / (1 − q))))) with q the posterior clamped to [0.001, 0.999], shipped as \`POCKETSPHINX_CALIBRATION\` = a ${POCKETSPHINX_CALIBRATION.intercept}, b ${POCKETSPHINX_CALIBRATION.slope}. ` +
    `Fit on this run's calibration half: a ${fixed(fitted.intercept, 4)}, b ${fixed(fitted.slope, 4)} ` +
    `(${shippedMatches ? 'the shipped constants match it' : '**differs from the shipped constants**: the recordings or the decoder changed; refit'}).`,
  '',
  'Feature of the posterior, chosen by log-loss on the calibration half (mean negative log-likelihood of right/wrong, natural log; lower is better):',
  '',
  '| feature | a | b | log-loss, calibration half | log-loss, held-out half |',
  '|---|---:|---:|---:|---:|',
  ...candidates.map(
    (c) =>
      `| ${c.name} | ${fixed(c.scaling.intercept, 4)} | ${fixed(c.scaling.slope, 4)} | ${fixed(c.losses[0], 4)} | ${fixed(c.losses[1], 4)} |`,
  ),
  '',
];
for (const half of halves) {
  const raw = wordsOf(half, false);
  const calibrated = wordsOf(half, true);
  const accuracy = raw.filter((w) => w.right).length / Math.max(1, raw.length);
  out.push(
    `### ${half.name[0]!.toUpperCase()}${half.name.slice(1)}: ${half.recordings.length} clips, ${raw.length} scored words, ${(accuracy * 100).toFixed(1)} % right`,
    '',
    `Expected calibration error: raw posterior **${fixed(expectedCalibrationError(raw), 3)}**, calibrated **${fixed(expectedCalibrationError(calibrated), 3)}**.`,
    '',
    'Raw posterior:',
    '',
    ...reliabilityTable(raw),
    '',
    'Calibrated (the reported `confidence` / `probability`):',
    '',
    ...reliabilityTable(calibrated),
    '',
    "Flags, segments by the share of their words that are wrong (fired / segments of that kind). Before (raw posteriors and Whisper's −1, the old behaviour):",
    '',
    ...flagTable(half, 'raw'),
    '',
    `How well avg_logprob ranks the mostly-wrong segments (ROC AUC, 0.5 = chance): raw ${fixed(segmentAuc(half, 'raw'), 3)}, calibrated ${fixed(segmentAuc(half, 'calibrated'), 3)}.`,
    '',
    "After (calibrated `avg_logprob`, `low_logprob` below ln 0.5 = −0.693: POCKETSPHINX_LOW_LOGPROB_LIMIT, the engine's own limit):",
    '',
    ...flagTable(half, 'calibrated'),
    '',
  );
}
out.push(
  '### The `low_logprob` limit on calibrated avg_logprob',
  '',
  'Not tuned on these figures: ln 0.5 is the decision rule "the geometric mean of the calibrated word probabilities is under one half" (words more likely wrong than right). ' +
    "Whisper's −1 asks for a geometric mean under 0.37, which calibrated PocketSphinx segments almost never reach. Share of segments flagged at other limits, for reference:",
  '',
  ...sweepTable(halves),
  '',
  '## sherpa-onnx (random-weight fixture models)',
  '',
  'The fixtures in packages/core/src/pipeline/recognize/test-support/models have random weights; whether they give scores at all:',
  '',
  ...(await fixtures(FIXTURE_CLIPS)),
  '',
  'sherpa-onnx-node 1.13.8 gives no token scores for Whisper and SenseVoice models (`ys_log_probs` is empty): their words have `confidence` null and no `low_logprob` or `no_speech` can fire. ' +
    'The NeMo TDT transducer fills `ys_log_probs` (one natural-log probability per token): its segments get `avg_logprob` (mean over the tokens) and its words a `confidence` (geometric mean of their tokens). ' +
    'Random weights spread the probability over the 142 tokens, so the chosen tokens average under 1/e (avg_logprob below −1): `low_logprob` must fire on every transducer segment, and does. ' +
    'No trained transducer is installed on this machine, so there is nothing to calibrate yet.',
  '',
  `(${((performance.now() - started) / 1000).toFixed(0)} s${
    CACHE_USED ? `; PocketSphinx's transcripts read from CONFIDENCE_BENCH_CACHE, decoded by an earlier run of this script` : ''
  }.)`,
);
await writeResult('confidence', out, 'npx tsx bench/confidence.ts');
