/**
 * `npx tsx bench/quality/compare-count-rules.ts [--cache file.json]`: the built-in diarizer's speaker-count
 * decision compared on the voice split (bench/quality/voice-split.ts). For every built meeting and single
 * speaker of the calibration and held-out sets (measure-meetings.ts) it runs the steps of
 * diarize-builtin.ts once (quiet speech added, 16 ms frames, window clustering), scores every count k = 2…8
 * (resegmented, scoreSpeakerCounts) and keeps the DER (no collar; and 0.25 s collar) of each k's turns,
 * plus the one-speaker screen (screenSpeakers). Decision rules are then evaluated on those scores without
 * diarizing again:
 * - "current": the three-stage decision of diarize-builtin.ts (screen → many voices → look past a failed split);
 * - "BIC(λ)": one criterion, the count k = 1…8 of highest penalisedGain among those whose every pair passes
 *   the pairwise thresholds (k = 1 scores 0), λ calibrated on the calibration set only.
 * Prints a Markdown table per rule and set (docs/diarization.md, "One criterion for the count").
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
  spreadWindowLabels,
  standardizeFeatures,
  trainBackgroundModel,
  chooseSpeakerCount,
  type SpeakerCountScore,
} from '@transcribe/core';
import { diarizationErrorRate, meetingReference } from '@transcribe/core/testing';
import { buildMeetings, buildSingles, type MeetingSet } from './measure-meetings.ts';

const run = promisify(execFile);

/** What is kept of one recording: per count k = 2…8 its scores (labels dropped) and DERs; k = 1's DER. */
interface Scored {
  set: MeetingSet;
  name: string;
  truth: number;
  screen: 'one' | 'split' | 'many';
  scores: Omit<SpeakerCountScore, 'labels'>[];
  /** DER (no collar, 0.25 s collar) by count: index 0 = one speaker, i = count i + 1. */
  ders: [number, number][];
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
  const features = await extractSpeechFeatures(wavPath, speech);
  const frames = standardizeFeatures(features);
  const windows = cutWindows(features.regions);
  if (windows.length < 2) return { screen: screen.verdict, scores: [], ders: [der(one)] };
  const model = await trainBackgroundModel(frames, 8);
  const dendrogram = clusterWindows(embedWindows(windows, frames, model, componentPosteriors(model, frames)));
  const labelsFor = (count: number) => spreadWindowLabels(windows, dendrogram.cut(count), frames.rows);
  const scores = await scoreSpeakerCounts(frames, features.regions, labelsFor, Math.min(8, windows.length));
  const ders = [der(one), ...scores.map((s) => der(fillShortPauses(framesToTurns(speech, features.times, features.regions, s.labels))))];
  return { screen: screen.verdict, scores: scores.map(({ labels: _labels, ...rest }) => rest), ders };
}

async function collect(audioDir: string, workDir: string): Promise<Scored[]> {
  const out: Scored[] = [];
  for (const meeting of await buildMeetings(audioDir, workDir, ['calibration', 'held-out', 'held-out far-field'])) {
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
    }
  }
  return out;
}

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
const passes = (s: Omit<SpeakerCountScore, 'labels'>, sep: number, gain: number) => s.separation >= sep && s.gain >= gain;

/** The current three-stage decision (screen, then chooseSpeakerCount with pastFailedSplit). */
const current: Rule = (r) => {
  if (r.screen === 'one') return 1;
  // Past the screen (split or many voices) the 16 ms estimate looks past a failed split, as diarize-builtin.ts does.
  const chosen = chooseSpeakerCount(
    r.scores.map((s) => ({ ...s, labels: new Int32Array(0) })),
    { pastFailedSplit: true },
  );
  return chosen?.count ?? 1;
};

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
    r.screen === 'split' || (many && r.screen === 'many') ? rule(r) : 1;
const rules: [string, Rule][] = [['current (three stages)', current]];
const weights = [1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6, 8];
for (const w of weights) rules.push([`BIC λ=${w}, pair thresholds, no screen`, bic(w)]);
for (const w of weights) rules.push([`BIC λ=${w}, no pair thresholds, no screen`, bic(w, -Infinity, -Infinity)]);
for (const w of [1, 1.25, 1.5, 2]) rules.push([`screen (split only) + BIC λ=${w}, pair thresholds`, screened(bic(w), false)]);
for (const w of [1, 1.25, 1.5, 2]) rules.push([`screen (split or many) + BIC λ=${w}, pair thresholds`, screened(bic(w), true)]);
console.log('| rule | set | meetings | count exact | within ±1 | singles stay 1 | DER no collar (count estimated) | DER 0.25 s collar |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [name, rule] of rules) {
  for (const set of ['calibration', 'held-out', 'held-out far-field'] as const) {
    const e = evaluate(
      rule,
      scored.filter((r) => r.set === set),
    );
    console.log(
      `| ${name} | ${set} | ${e.n} | ${e.exact} (${Math.round((100 * e.exact) / e.n)} %) | ${e.near} (${Math.round((100 * e.near) / e.n)} %) | ${e.singlesN ? e.singles : '–'} | ${e.der.toFixed(3)} | ${e.derCollar.toFixed(3)} |`,
    );
  }
}
