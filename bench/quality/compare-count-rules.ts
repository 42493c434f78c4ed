/**
 * `npx tsx bench/quality/compare-count-rules.ts [--cache file.json] [--rooms]`: the built-in diarizer's
 * speaker-count decision compared on the voice split (bench/quality/voice-split.ts). For every built meeting
 * of the calibration, held-out and both far-field sets (measure-meetings.ts), every single speaker of the
 * calibration and held-out sets, and each single speaker made far-field (makeFarField; counted with the
 * far-field set of its side), it runs the steps of diarize-builtin.ts once (quiet speech added, 16 ms
 * frames, window clustering), scores every count k = 2…8 (resegmented, scoreSpeakerCounts) and keeps the
 * DER (no collar; and 0.25 s collar) of each k's turns, the one-speaker screen (screenSpeakers: verdict,
 * loudness spread) with its own scores (its split in two, the pair scores of its cut into 6), and measured
 * properties of the speech (recordingProperties). A cache written by an older version (without
 * screenSpread) still evaluates: the 16 ms c0 spread stands in. Decision rules are then evaluated on those
 * scores without diarizing again:
 * - "before": the three-stage decision (screen → many voices → look past a failed split) on every recording;
 * - "current": diarize-builtin.ts today, the three stages unless the loudness spread is under
 *   ROOM_C0_SPREAD (far-field: the speakers apart in the screen's cut into 6 at ROOM_THRESHOLDS);
 * - "rooms …": the far-field rules tried (docs/diarization.md, "Far-field count"); `--rooms` prints only
 *   these and the two above;
 * - "BIC(λ)": one criterion, the count k = 1…8 of highest penalisedGain among those whose every pair passes
 *   the pairwise thresholds (k = 1 scores 0), λ calibrated on the calibration set only
 *   (docs/diarization.md, "One criterion for the count").
 * Prints a Markdown table per rule and set. Calibrate only on the calibration rows.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  addQuietSpeech,
  fillShortPauses,
  framesToTurns,
  SPEAKER_GAIN_THRESHOLD,
  SPEAKER_SEPARATION_THRESHOLD,
  clusterWindows,
  componentPosteriors,
  cutWindows,
  detectSpeechLevels,
  embedWindows,
  extractSpeechFeatures,
  penalisedGain,
  QUIET_SPEECH_ONSET,
  resolveDefaultVadModelPath,
  scoreSpeakerCounts,
  screenSpeakers,
  type ScreenVerdict,
  ROOM_C0_SPREAD,
  ROOM_GAIN_THRESHOLD,
  ROOM_SEPARATION_THRESHOLD,
  spreadWindowLabels,
  standardizeFeatures,
  trainBackgroundModel,
  chooseSpeakerCount,
  type SpeakerCountScore,
  COARSE_HOP_SAMPLES,
  speakerPairScores,
  type FrameMatrix,
} from '@transcribe/core';
import { diarizationErrorRate, makeFarField, meetingReference } from '@transcribe/core/testing';
import { buildMeetings, buildSingles, type MeetingSet } from './measure-meetings.ts';

const run = promisify(execFile);

/** What is kept of one recording: per count k = 2…8 its scores (labels dropped) and DERs; k = 1's DER. */
interface Scored {
  set: MeetingSet;
  name: string;
  truth: number;
  /** The diarizer's screen verdict (screenSpeakers), far-field `room` included. */
  screen: ScreenVerdict;
  /** The screen's loudness spread (loudnessSpread of the 32 ms frames; ROOM_C0_SPREAD decides far-field). */
  screenSpread?: number;
  scores: Omit<SpeakerCountScore, 'labels'>[];
  /** DER (no collar, 0.25 s collar) by count: index 0 = one speaker, i = count i + 1. */
  ders: [number, number][];
  /** The screen's own scores (32 ms frames): its k = 2 split, and the pair scores of its cut into 6. */
  screenSplit?: { separation: number; gain: number };
  screenCut?: { count: number; sizes: number[]; separation: number[]; gain: number[]; framesPerSecond: number };
  /** Measured properties of the recording's speech (see recordingProperties). */
  props?: Record<string, number>;
}

/**
 * Properties of a recording's speech that may tell a room from a close microphone: the spread of raw c0
 * (log energy; noise and reverberation fill the dips), the mean autocorrelation of the standardised MFCCs
 * at lags of 3, 6 and 12 frames (48, 96, 192 ms; reverberation smears frames into their successors), and
 * the mean variance of the background model's components (standardised units: how much of the frames'
 * variance the 8 component means leave unexplained).
 */
function recordingProperties(
  raw: { values: Float32Array; dimension: number; regions: Uint32Array },
  frames: FrameMatrix,
  model: { weights: Float64Array; variances: Float64Array; components: number; dimension: number },
): Record<string, number> {
  const n = frames.rows;
  const c0 = Float64Array.from({ length: n }, (_, i) => raw.values[i * raw.dimension]!);
  const mean = c0.reduce((a, b) => a + b, 0) / n;
  const c0Std = Math.sqrt(c0.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  const sorted = [...c0].sort((a, b) => a - b);
  const c0Range = sorted[Math.floor(0.9 * (n - 1))]! - sorted[Math.floor(0.1 * (n - 1))]!;
  const props: Record<string, number> = { c0Std, c0Range };
  for (const lag of [3, 6, 12]) {
    let [sum, count] = [0, 0];
    for (let i = 0; i + lag < n; i += 1) {
      if (raw.regions[i] !== raw.regions[i + lag]) continue;
      for (let k = 0; k < frames.dimension; k += 1)
        sum += frames.values[i * frames.dimension + k]! * frames.values[(i + lag) * frames.dimension + k]!;
      count += frames.dimension;
    }
    props[`autocorr${lag}`] = count > 0 ? sum / count : 0;
  }
  let spread = 0;
  for (let c = 0; c < model.components; c += 1) {
    let v = 0;
    for (let k = 0; k < model.dimension; k += 1) v += model.variances[c * model.dimension + k]!;
    spread += (model.weights[c]! * v) / model.dimension;
  }
  props.backgroundSpread = spread;
  return props;
}

/** The one-speaker screen redone with its intermediate scores kept (diarize-builtin.ts screenFeatures). */
async function screenDetails(
  wavPath: string,
  speech: { start: number; end: number }[],
): Promise<Pick<Scored, 'screenSplit' | 'screenCut'>> {
  const features = await extractSpeechFeatures(wavPath, speech, undefined, COARSE_HOP_SAMPLES);
  const frames = standardizeFeatures(features);
  const windows = cutWindows(features.regions, frames.framesPerSecond);
  if (windows.length < 2) return {};
  const model = await trainBackgroundModel(frames, 8);
  const dendrogram = clusterWindows(embedWindows(windows, frames, model, componentPosteriors(model, frames)));
  const labels2 = spreadWindowLabels(windows, dendrogram.cut(2), frames.rows);
  const [split] = await scoreSpeakerCounts(frames, features.regions, () => labels2, 2);
  const cut = Math.min(6, windows.length);
  const pairs = speakerPairScores(frames, spreadWindowLabels(windows, dendrogram.cut(cut), frames.rows), cut);
  return {
    ...(split ? { screenSplit: { separation: split.separation, gain: split.gain } } : {}),
    screenCut: {
      count: cut,
      sizes: pairs.sizes,
      separation: [...pairs.separation],
      gain: [...pairs.gain],
      framesPerSecond: frames.framesPerSecond!,
    },
  };
}

async function scoreRecording(wavPath: string, turns: { start: number; end: number; speaker: string }[] | null) {
  const levels = await detectSpeechLevels(wavPath, { modelPath: resolveDefaultVadModelPath(), quietThreshold: QUIET_SPEECH_ONSET });
  const speech = addQuietSpeech(levels.speech, levels.quietSpeech);
  const reference = turns ? meetingReference(levels.speech, turns) : levels.speech.map((r) => ({ ...r, speaker: 'A' }));
  const der = (hypothesis: { start: number; end: number; speaker: string }[]): [number, number] => [
    diarizationErrorRate(reference, hypothesis).der,
    diarizationErrorRate(reference, hypothesis, { collar: 0.25 }).der,
  ];
  const one = speech.map((r) => ({ ...r, speaker: 'SPEAKER_1' }));
  const screen = await screenSpeakers({ wavPath, speech });
  const details = await screenDetails(wavPath, speech);
  const features = await extractSpeechFeatures(wavPath, speech);
  const frames = standardizeFeatures(features);
  const windows = cutWindows(features.regions);
  const kept = { screen: screen.verdict, screenSpread: screen.loudnessSpread, ...details };
  if (windows.length < 2) return { ...kept, scores: [], ders: [der(one)] };
  const model = await trainBackgroundModel(frames, 8);
  const props = recordingProperties(features, frames, model);
  const dendrogram = clusterWindows(embedWindows(windows, frames, model, componentPosteriors(model, frames)));
  const labelsFor = (count: number) => spreadWindowLabels(windows, dendrogram.cut(count), frames.rows);
  const scores = await scoreSpeakerCounts(frames, features.regions, labelsFor, Math.min(8, windows.length));
  const ders = [der(one), ...scores.map((s) => der(fillShortPauses(framesToTurns(speech, features.times, features.regions, s.labels))))];
  return { ...kept, scores: scores.map(({ labels: _labels, ...rest }) => rest), ders, props };
}

async function collect(audioDir: string, workDir: string): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const meeting of await buildMeetings(audioDir, workDir, [
    'calibration',
    'held-out',
    'held-out far-field',
    'calibration far-field',
  ])) {
    const r = await scoreRecording(meeting.wavPath, meeting.turns);
    out.push({ set: meeting.set, name: meeting.voices.join(' '), truth: meeting.voices.length, ...r });
    process.stderr.write('.');
  }
  for (const set of ['calibration', 'held-out'] as const) {
    const singles = await buildSingles(audioDir, workDir, set);
    if (set === 'calibration') singles.push(...(await longSingles(audioDir, workDir)));
    for (const single of singles) {
      out.push({ set, name: `single ${single.name}`, truth: 1, ...(await scoreRecording(single.wavPath, null)) });
      process.stderr.write('s');
      // The same voice made far-field (the simulation of the far-field meetings): a count rule for rooms must keep it at 1 too.
      const far = join(workDir, `far-${set}-${single.name.replace(/[^a-z0-9]/gi, '-')}.wav`);
      await makeFarField(single.wavPath, far, FAR_SINGLE_SEED + out.length);
      const farSet = set === 'calibration' ? 'calibration far-field' : 'held-out far-field';
      out.push({ set: farSet, name: `single ${single.name} far-field`, truth: 1, ...(await scoreRecording(far, null)) });
      process.stderr.write('f');
    }
  }
  return out;
}

/** Seed base of the far-field singles' room and noise (away from the meetings' 0…9 and 500…509). */
const FAR_SINGLE_SEED = 2000;

/**
 * Long single speakers of a calibration voice (HiFi-TTS 6097): the whole 333 s recording and its first 30
 * and 60 s. The BIC penalty per frame falls as ln N / N, so a count rule must be checked on long speech of
 * one voice; the held-out voices have no long recording.
 */
async function longSingles(audioDir: string, workDir: string): Promise<{ name: string; wavPath: string }[]> {
  const long = join(audioDir, 'long_hifitts6097_concat_16k.wav');
  const out = [{ name: 'hifi 333 s', wavPath: long }];
  for (const seconds of [30, 60]) {
    const wavPath = join(workDir, `hifi-first-${seconds}.wav`);
    await run('ffmpeg', ['-v', 'error', '-nostdin', '-y', '-i', long, '-t', String(seconds), '-ar', '16000', '-ac', '1', wavPath]);
    out.push({ name: `hifi first ${seconds} s`, wavPath });
  }
  return out;
}

type Rule = (r: Scored) => number;
const passes = (s: { separation: number; gain: number }, sep: number, gain: number) => s.separation >= sep && s.gain >= gain;

/** The close-talk screen's verdict (split, many voices or one), from its scores (screenSplit, screenCut). */
const closeTalkVerdict = (r: Scored, sep = SPEAKER_SEPARATION_THRESHOLD, gain = SPEAKER_GAIN_THRESHOLD) =>
  r.screenSplit && passes(r.screenSplit, sep, gain) ? 'split' : apartOf(r, sep, gain) >= 3 ? 'many' : 'one';

/** The three-stage decision of before the far-field rule (screen, then chooseSpeakerCount with pastFailedSplit), on every recording. */
const before: Rule = (r) => {
  if (closeTalkVerdict(r) === 'one') return 1;
  // Past the screen (split or many voices) the 16 ms estimate looks past a failed split, as diarize-builtin.ts does.
  const chosen = chooseSpeakerCount(
    r.scores.map((s) => ({ ...s, labels: new Int32Array(0) })),
    { pastFailedSplit: true },
  );
  return chosen?.count ?? 1;
};

/** The loudness spread the diarizer's screen measured (32 ms frames); the 16 ms one for caches made before it was kept. */
const spreadOf = (r: Scored) => r.screenSpread ?? r.props?.c0Std ?? Infinity;

/**
 * The decision of diarize-builtin.ts today: under ROOM_C0_SPREAD the count is the speakers apart in the
 * screen's cut into 6 at ROOM_THRESHOLDS; otherwise the three stages (before).
 */
const current: Rule = (r) => (spreadOf(r) < ROOM_C0_SPREAD ? apartOf(r, ROOM_SEPARATION_THRESHOLD, ROOM_GAIN_THRESHOLD) : before(r));

/** One criterion: highest BIC over k = 1…8 among counts whose every pair passes (k = 1: 0). */
const bic =
  (weight: number, sep = SPEAKER_SEPARATION_THRESHOLD, gain = SPEAKER_GAIN_THRESHOLD): Rule =>
  (r) => {
    let [best, value] = [1, 0];
    for (const s of r.scores) {
      if (!passes(s, sep, gain)) continue;
      const v = penalisedGain({ ...s, labels: new Int32Array(0) }, weight);
      if (v > value) [best, value] = [s.count, v];
    }
    return best;
  };

function evaluate(rule: Rule, group: Scored[]) {
  const meetings = group.filter((r) => !r.name.startsWith('single '));
  const singles = group.filter((r) => r.name.startsWith('single '));
  const counts = meetings.map((r) => ({ r, k: rule(r) }));
  const derOf = (r: Scored, k: number) => r.ders[Math.min(k, r.ders.length) - 1]!;
  const mean = (f: (x: { r: Scored; k: number }) => number) => counts.reduce((s, x) => s + f(x), 0) / Math.max(1, counts.length);
  return {
    n: meetings.length,
    exact: counts.filter(({ r, k }) => k === r.truth).length,
    near: counts.filter(({ r, k }) => Math.abs(k - r.truth) <= 1).length,
    singles: `${singles.filter((r) => rule(r) === 1).length} of ${singles.length}`,
    singlesStay: singles.filter((r) => rule(r) === 1).length,
    singlesN: singles.length,
    der: mean(({ r, k }) => derOf(r, k)[0]),
    derCollar: mean(({ r, k }) => derOf(r, k)[1]),
  };
}

/** The current three-stage decision with other pair thresholds (screen split, many voices, chooseSpeakerCount's passes). */
const current3 =
  (sep: number, gain: number): Rule =>
  (r) => {
    const verdict = closeTalkVerdict(r, sep, gain);
    if (verdict === 'one') return 1;
    const two = r.scores.find((s) => s.count === 2);
    const splits = two !== undefined && passes(two, sep, gain);
    let [chosen, best] = splits ? [2, penalisedGain({ ...two, labels: new Int32Array(0) })] : [1, 0];
    for (const s of r.scores) {
      if (s.count <= Math.max(chosen, 2) || !passes(s, sep, gain)) continue;
      const v = penalisedGain({ ...s, labels: new Int32Array(0) });
      if (v > best) [chosen, best] = [s.count, v];
    }
    return chosen;
  };

/** Speakers apart in the screen's cut into 6 (countSpeakersApart) at the given pair thresholds; 1 without the cut. */
function apartOf(r: Scored, sep: number, gain: number): number {
  const cut = r.screenCut;
  if (!cut) return 1;
  const large = cut.sizes.flatMap((n, c) => (n >= 3 * cut.framesPerSecond ? [c] : []));
  const group = new Map(large.map((c) => [c, c]));
  const root = (c: number): number => {
    while (group.get(c) !== c) c = group.get(c)!;
    return c;
  };
  for (const a of large)
    for (const b of large)
      if (b < a && !(cut.separation[a * cut.count + b]! >= sep && cut.gain[a * cut.count + b]! >= gain)) group.set(root(a), root(b));
  return Math.max(1, new Set(large.map(root)).size);
}

/** The count = the speakers apart in the screen's cut into 6 at lowered thresholds. */
const apartRule =
  (sep: number, gain: number): Rule =>
  (r) =>
    apartOf(r, sep, gain);

/** `rule` for recordings whose loudness spread (spreadOf) is under `spread`, the decision of before otherwise. */
const room =
  (spread: number, rule: Rule): Rule =>
  (r) =>
    spreadOf(r) < spread ? rule(r) : before(r);

const cacheArg = process.argv.indexOf('--cache');
const cache = cacheArg > 0 ? process.argv[cacheArg + 1] : undefined;
let scored: Scored[];
if (
  cache &&
  (await readFile(cache, 'utf8').then(
    () => true,
    () => false,
  ))
)
  scored = JSON.parse(await readFile(cache, 'utf8')) as Scored[];
else {
  const workDir = await mkdtemp(join(tmpdir(), 'count-rules-'));
  try {
    const audioDir = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'audio');
    scored = await collect(audioDir, workDir);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  if (cache) await writeFile(cache, JSON.stringify(scored));
}

/** A rule run only where the one-speaker screen passes (`split`, or also `many` when `many` is set); else 1. */
const screened =
  (rule: Rule, many: boolean): Rule =>
  (r) =>
    closeTalkVerdict(r) === 'split' || (many && closeTalkVerdict(r) === 'many') ? rule(r) : 1;
const rules: [string, Rule][] = [
  ['before (three stages everywhere)', before],
  [`current (far-field: c0 spread < ${ROOM_C0_SPREAD}, speakers apart at ${ROOM_SEPARATION_THRESHOLD} / ${ROOM_GAIN_THRESHOLD})`, current],
];
const weights = [1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8];
if (!process.argv.includes('--rooms')) {
  for (const w of weights) rules.push([`BIC λ=${w}, pair thresholds, no screen`, bic(w)]);
  for (const w of weights) rules.push([`BIC λ=${w}, no pair thresholds, no screen`, bic(w, -Infinity, -Infinity)]);
  for (const w of [1, 1.25, 1.5, 2]) rules.push([`screen (split only) + BIC λ=${w}, pair thresholds`, screened(bic(w), false)]);
  for (const w of [1, 1.25, 1.5, 2]) rules.push([`screen (split or many) + BIC λ=${w}, pair thresholds`, screened(bic(w), true)]);
}
// Room rules tried (docs/diarization.md, "Far-field count"): a recording whose loudness spread is under ROOM_C0_SPREAD is far-field.
for (const [sep, gain] of <[number, number][]>[
  [1.5, 0.7],
  [1.6, 0.7],
  [1.7, 0.7],
])
  rules.push([
    `rooms (c0 spread < ${ROOM_C0_SPREAD}): the three stages with thresholds ${sep} / ${gain}`,
    room(ROOM_C0_SPREAD, current3(sep, gain)),
  ]);
for (const [sep, gain] of <[number, number][]>[
  [1.0, 0.65],
  [1.2, 0.65],
  [1.3, 0.65],
  [1.4, 0.65],
])
  rules.push([
    `rooms (c0 spread < ${ROOM_C0_SPREAD}): speakers apart in the screen's cut into 6 at ${sep} / ${gain}`,
    room(ROOM_C0_SPREAD, apartRule(sep, gain)),
  ]);
console.log('| rule | set | meetings | count exact | within ±1 | singles stay 1 | DER no collar (count estimated) | DER 0.25 s collar |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [name, rule] of rules) {
  for (const set of ['calibration', 'calibration far-field', 'held-out', 'held-out far-field'] as const) {
    const e = evaluate(
      rule,
      scored.filter((r) => r.set === set),
    );
    console.log(
      `| ${name} | ${set} | ${e.n} | ${e.exact} (${Math.round((100 * e.exact) / e.n)} %) | ${e.near} (${Math.round((100 * e.near) / e.n)} %) | ${e.singlesN ? e.singles : '–'} | ${e.der.toFixed(3)} | ${e.derCollar.toFixed(3)} |`,
    );
  }
}
