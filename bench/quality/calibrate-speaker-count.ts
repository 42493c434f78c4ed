/**
 * `npx tsx bench/quality/calibrate-speaker-count.ts [--quick]`: the speaker-count scores of the
 * built-in diarizer (estimate-speaker-count.ts) on every recording of ../shared/audio with a known number
 * of speakers, plus joins of different readers made with ffmpeg (positives) and of one reader's clips
 * (negatives). Prints a Markdown table: per candidate count the resegmented clusters' smallest separation
 * and likelihood gain, their total gain and its BIC (penalisedGain, which picks among two or more
 * speakers), the estimated count (looking past a failed split in two wherever the screen found more than
 * one speaker, as diarize-builtin.ts does), and the verdict of the one-speaker screen that runs before
 * the estimate on 32 ms frames (diarize-builtin.ts mayHoldSecondSpeaker: it must say 2+ wherever the
 * estimate finds more than one speaker). `--quick` skips the single HiFi-TTS clips.
 * Only recordings of the calibration voices (bench/quality/voice-split.ts) are used: the held-out voices
 * judge the result (bench/quality/measure-meetings.ts). `--all` adds every other recording (held-out
 * voices, joins across the sets, pyannote_sample, ami_debug_tst01), as the table was before the split:
 * never calibrate on that.
 * The thresholds live in estimate-speaker-count.ts; the table goes to docs/diarization.md.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import {
  chooseSpeakerCount,
  clusterWindows,
  penalisedGain,
  componentPosteriors,
  cutWindows,
  detectSpeech,
  embedWindows,
  extractSpeechFeatures,
  screenSpeakers,
  resolveDefaultVadModelPath,
  scoreSpeakerCounts,
  spreadWindowLabels,
  standardizeFeatures,
  trainBackgroundModel,
  type SpeakerScreen,
} from '@transcribe/core';
import { setOfClips } from './voice-split.ts';

const AUDIO = process.env.SHARED_AUDIO_DIR ?? join(import.meta.dirname, '..', '..', '..', 'shared', 'audio');
const run = promisify(execFile);
const [JFK, LS0, LS1] = ['jfk.wav', 'librispeech-test-clean/1089-134686-0000.wav', 'librispeech-test-clean/1089-134686-0001.wav'];
const LV = (n: string) => `librivox-sense-and-sensibility/sense_and_sensibility_01_austen_64kb-${n}.wav`;
const FL = (n: string) => `fleurs/fleurs-${n}.wav`;
const HIFI = 'hifitts-6097/clips/astralplane_03_leadbeater_0639.wav';
/** Joins: name, true number of speakers, clips played one after the other. */
const JOINS: [string, number, string[]][] = [
  ['jfk + LibriSpeech 0000', 2, [JFK, LS0]],
  ['FLEURS en-000 + en-002', 2, [FL('en-000'), FL('en-002')]],
  ['LibriSpeech 0000 + FLEURS en-000', 2, [LS0, FL('en-000')]],
  ['jfk + FLEURS en-002', 2, [JFK, FL('en-002')]],
  ['LibriVox 0870 + LibriSpeech 0000', 2, [LV('0870'), LS0]],
  ['FLEURS de-000 + fr-001', 2, [FL('de-000'), FL('fr-001')]],
  ['FLEURS es-001 + pt-000', 2, [FL('es-001'), FL('pt-000')]],
  ['ru_deepspeech + FLEURS en-001', 2, ['ru_deepspeech_smoke.wav', FL('en-001')]],
  ['HiFi-TTS 0639 + jfk', 2, [HIFI, JFK]],
  ['jfk / LibriSpeech / HiFi-TTS twice', 3, [JFK, LS0, HIFI, JFK, LS0, HIFI]],
  ['jfk / LibriSpeech 0000, twice (turns back and forth)', 2, [JFK, LS0, JFK, LS0]],
  ['FLEURS en-003 / de-001, twice', 2, [FL('en-003'), FL('de-001'), FL('en-003'), FL('de-001')]],
  ['FLEURS fr-000 + pt-001', 2, [FL('fr-000'), FL('pt-001')]],
  ['FLEURS en-001 + en-003', 2, [FL('en-001'), FL('en-003')]],
  ['FLEURS en-004 + LibriSpeech 0001', 2, [FL('en-004'), LS1]],
  ['LibriVox 0890 + HiFi-TTS 0639', 2, [LV('0890'), HIFI]],
  ['jfk + FLEURS en-004 + LibriVox 0880 + FLEURS es-000 (4 readers)', 4, [JFK, FL('en-004'), LV('0880'), FL('es-000')]],
  [
    'FLEURS de-001 / es-000 / fr-000 / pt-000 / en-000 (5 readers)',
    5,
    [FL('de-001'), FL('es-000'), FL('fr-000'), FL('pt-000'), FL('en-000')],
  ],
  ['LibriVox 0870 + 0880 + 0890 (one reader)', 1, [LV('0870'), LV('0880'), LV('0890')]],
  ['LibriSpeech 0000 + 0001 (one reader)', 1, [LS0, LS1]],
];

/** The recordings of the table: [name, speakers, path] of the calibration voices only, unless `all`. */
async function recordings(workDir: string, quick: boolean, all: boolean): Promise<[string, number, string][]> {
  const list: [string, number, string][] = [];
  const sources = new Map<string, string[]>();
  const single = [JFK, 'ru_deepspeech_smoke.wav', 'long_hifitts6097_concat_16k.wav', LS0, LS1, ...['0870', '0880', '0890'].map(LV)];
  single.push(...(await readdir(join(AUDIO, 'fleurs'))).filter((f) => f.endsWith('.wav')).map((f) => `fleurs/${f}`));
  for (const clip of single) {
    list.push([clip, 1, join(AUDIO, clip)]);
    sources.set(clip, [clip]);
  }
  if (!quick) {
    for (const f of (await readdir(join(AUDIO, 'hifitts-6097/clips'))).filter((f) => f.endsWith('.wav')).sort()) {
      const path = join(AUDIO, 'hifitts-6097/clips', f);
      if ((await stat(path)).size >= 6 * 32000) list.push([`hifitts-6097/clips/${f}`, 1, path]); // 6 s: two speakers of 3 s
      sources.set(`hifitts-6097/clips/${f}`, [`hifitts-6097/clips/${f}`]);
    }
  }
  for (const [channel, pan] of [
    ['left', 'c0'],
    ['right', 'c1'],
  ]) {
    const out = join(workDir, `stereo-${channel}.wav`);
    await ffmpeg(['-i', join(AUDIO, 'stereo_two_speakers.wav'), '-af', `pan=mono|c0=${pan}`, out]);
    list.push([`stereo_two_speakers ${channel} channel`, 1, out]);
    sources.set(`stereo_two_speakers ${channel} channel`, [`stereo_two_speakers.wav#${channel}`]);
  }
  for (const seconds of [30, 60]) {
    const first = join(workDir, `hifi-first-${seconds}.wav`);
    await ffmpeg(['-i', join(AUDIO, 'long_hifitts6097_concat_16k.wav'), '-t', String(seconds), first]);
    list.push([`long_hifitts6097 first ${seconds} s`, 1, first]);
    sources.set(`long_hifitts6097 first ${seconds} s`, ['long_hifitts6097_concat_16k.wav']);
  }
  for (const [name, speakers, clips] of JOINS) {
    const out = join(workDir, `join-${list.length}.wav`);
    const inputs = clips.flatMap((clip) => ['-i', join(AUDIO, clip)]);
    await ffmpeg([...inputs, '-filter_complex', `${clips.map((_, i) => `[${i}:a]`).join('')}concat=n=${clips.length}:v=0:a=1`, out]);
    list.push([name, speakers, out]);
    sources.set(name, clips);
  }
  list.push(['stereo_two_speakers, both channels mixed', 2, join(AUDIO, 'stereo_two_speakers.wav')]);
  for (const name of ['pyannote_sample', 'ami_debug_tst01'])
    list.push([`multispeaker/${name}`, name === 'ami_debug_tst01' ? 4 : 2, join(AUDIO, 'multispeaker', `${name}.wav`)]);
  // Recordings of other voices than the calibration ones (held-out, mixed, the real meetings) only with --all.
  return all ? list : list.filter(([name]) => setOfClips(sources.get(name) ?? [name]) === 'calibration');
}

function ffmpeg(args: string[]) {
  return run('ffmpeg', ['-v', 'error', '-nostdin', '-y', ...args.slice(0, -1), '-ar', '16000', '-ac', '1', args.at(-1)!]);
}

/** The steps of diarize-builtin.ts up to the count estimate. */
async function scoreRecording(wavPath: string) {
  const speech = await detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
  if (speech.length === 0) return { seconds: 0, scores: [], screen: undefined };
  const screen = await screenSpeakers({ wavPath, speech });
  const features = await extractSpeechFeatures(wavPath, speech);
  const frames = standardizeFeatures(features);
  const windows = cutWindows(features.regions);
  const seconds = frames.rows * features.hopSeconds;
  if (windows.length < 2) return { seconds, scores: [], screen };
  const model = await trainBackgroundModel(frames, 8);
  const dendrogram = clusterWindows(embedWindows(windows, frames, model, componentPosteriors(model, frames)));
  const labelsFor = (count: number) => spreadWindowLabels(windows, dendrogram.cut(count), frames.rows);
  return { seconds, scores: await scoreSpeakerCounts(frames, features.regions, labelsFor, Math.min(8, windows.length)), screen };
}

/** The one-speaker screen's verdict (as mayHoldSecondSpeaker), in bold where it would end the diarization the 16 ms estimate continues. */
function screenVerdict(screen: SpeakerScreen | undefined, estimated: number): string {
  if (screen && screen.verdict !== 'one') return `2+ (${screen.verdict})`;
  return estimated > 1 ? '**1 (misses)**' : '1';
}

const workDir = await mkdtemp(join(tmpdir(), 'calibrate-speakers-'));
try {
  console.log(
    '| recording | speakers | speech s | separation k=2…8 | pair gain k=2…8 | total gain k=2…8 | BIC k=2…8 | estimated | screen: separation, gain k=2 | screen: speakers apart in 6 | screen |\n| --- | ---: | ---: | --- | --- | --- | --- | ---: | --- | ---: | --- |',
  );
  for (const [name, speakers, path] of await recordings(workDir, process.argv.includes('--quick'), process.argv.includes('--all'))) {
    const wavPath = join(workDir, `decoded-${basename(path)}`);
    await ffmpeg(['-i', path, wavPath]);
    const { seconds, scores, screen } = await scoreRecording(wavPath);
    const estimated = chooseSpeakerCount(scores, { pastFailedSplit: screen !== undefined && screen.verdict !== 'one' })?.count ?? 1;
    const column = (key: 'separation' | 'gain' | 'totalGain') => scores.map((s) => s[key].toFixed(2)).join(' ') || '–';
    const bic = scores.map((s) => (s.separation > 0 ? penalisedGain(s).toFixed(2) : '–')).join(' ') || '–';
    console.log(
      `| ${name} | ${speakers} | ${seconds.toFixed(1)} | ${column('separation')} | ${column('gain')} | ${column('totalGain')} | ${bic} | ${estimated === speakers ? estimated : `**${estimated}**`} | ${screen?.split ? `${screen.split.separation.toFixed(2)} ${screen.split.gain.toFixed(2)}` : '–'} | ${screen?.apart || '–'} | ${screenVerdict(screen, estimated)} |`,
    );
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
}
