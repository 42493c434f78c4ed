/**
 * Benchmark: real-time factor (RTF = processing seconds / audio seconds) of each available engine
 * and of the whole pipeline, and how it grows with the length of the audio (it must stay
 * linear). Recordings are real clips concatenated with ffmpeg (bench/support/long-recordings.ts).
 *
 * - PocketSphinx engine alone (`engine.recognize` on decoded audio and VAD intervals): 1, 2 and 5 min
 *   (quick) or 1, 5 and 10 min (`--full`), to keep the run short on a shared machine.
 * - Whole pipeline with PocketSphinx (real service, HTTP, PostgreSQL): the same lengths.
 * - Whole pipeline with the remote engine against the local OpenAI-compatible server double
 *   (answers at once): 1, 5, 10, 30, 60 min, so the pipeline's own growth is seen up to an hour.
 * - sherpa-onnx: measured when MODELS_DIR holds a ready model, otherwise listed as unavailable.
 *
 * Run: `npx tsx bench/real-time-factor.ts [--full]`. Writes bench/results/real-time-factor.md.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import {
  createPocketsphinxEngine,
  createSherpaOnnxEngine,
  decodeToPcm,
  detectSpeech,
  listInstalledModels,
  type RecognitionEngine,
  resolveDefaultVadModelPath,
} from '@transcribe/core';
import { startTranscriptionServer } from '@transcribe/core/testing';
import { serveFiles } from '../apps/api/src/test-support/serve-files.ts';
import { startTestService } from '../apps/api/src/test-support/start-test-service.ts';
import { FULL_RUN, fixed, secondsSince, writeResult } from './support/bench-kit.ts';
import { BENCH_TMP, buildRecording } from './support/long-recordings.ts';
import { predictAndWait } from './support/predict-through-api.ts';

const ENGINE_SECONDS = FULL_RUN ? [60, 300, 600] : [60, 120, 300];
const REMOTE_SECONDS = [60, 300, 600, 1800, 3600];

interface Point {
  audioSeconds: number;
  seconds: number;
}
interface Series {
  name: string;
  points: Point[];
  note?: string;
}

async function engineSeries(name: string, engine: RecognitionEngine, sizes: number[], workDir: string): Promise<Series> {
  const points: Point[] = [];
  for (const seconds of sizes) {
    const wavPath = join(workDir, `engine-${seconds}.wav`);
    const { durationSeconds } = await decodeToPcm(await buildRecording({ seconds }), wavPath);
    const speech = await detectSpeech(wavPath, { modelPath: resolveDefaultVadModelPath() });
    const started = performance.now();
    await engine.recognize({ wavPath, durationSeconds, speech, language: 'en', prompt: null, hotwords: [] });
    points.push({ audioSeconds: durationSeconds, seconds: secondsSince(started) });
    console.log(`  ${name}: ${seconds} s of audio in ${points.at(-1)!.seconds.toFixed(1)} s`);
  }
  return { name, points };
}

/** The whole pipeline through the real service (in this process, PostgreSQL), one new link per size. */
async function pipelineSeries(name: string, env: Record<string, string>, sizes: number[], afterEach?: () => void): Promise<Series> {
  const files = await serveFiles(BENCH_TMP);
  const service = await startTestService('postgres', { WORKER_CONCURRENCY: '1', ...env });
  const points: Point[] = [];
  try {
    for (const seconds of sizes) {
      const file = basename(await buildRecording({ seconds }));
      const done = await predictAndWait(service.replicateBase, service.key, {
        audio: `${files.url}/${file}?run=${Date.now()}`,
        language: 'en',
      });
      points.push({ audioSeconds: seconds, seconds: done.totalSeconds });
      afterEach?.();
      console.log(`  ${name}: ${seconds} s of audio in ${done.totalSeconds.toFixed(1)} s`);
    }
  } finally {
    await service.stop();
    await files.close();
  }
  return { name, points };
}

async function sherpaSeries(workDir: string): Promise<Series> {
  const modelsDir = process.env.MODELS_DIR;
  const name = 'sherpa-onnx engine alone';
  if (!modelsDir) return { name, points: [], note: 'not measured: MODELS_DIR is not set (no neural model installed on this machine)' };
  const ready = (await listInstalledModels(modelsDir)).models.filter((report) => report.status === 'ready').map((report) => report.model);
  if (ready.length === 0) return { name, points: [], note: `not measured: no ready model in ${modelsDir}` };
  return engineSeries(`${name} (${ready[0]!.name})`, createSherpaOnnxEngine({ modelsDir, models: ready }), ENGINE_SECONDS, workDir);
}

/**
 * Least-squares line seconds = fixed + perSecond × audioSeconds, and the worst miss of a point as a
 * share of the longest run (a share of each point's own time would blow up the short, noisy ones).
 */
function fitLine(points: Point[]): { fixedSeconds: number; perSecond: number; worstMiss: number } | null {
  if (points.length < 3) return null;
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.audioSeconds, 0) / n;
  const my = points.reduce((s, p) => s + p.seconds, 0) / n;
  const sxy = points.reduce((s, p) => s + (p.audioSeconds - mx) * (p.seconds - my), 0);
  const sxx = points.reduce((s, p) => s + (p.audioSeconds - mx) ** 2, 0);
  const perSecond = sxy / sxx;
  const fixedSeconds = my - perSecond * mx;
  const longest = Math.max(...points.map((p) => p.seconds));
  const worstMiss = Math.max(...points.map((p) => Math.abs(p.seconds - (fixedSeconds + perSecond * p.audioSeconds)))) / longest;
  return { fixedSeconds, perSecond, worstMiss };
}

/**
 * `grows faster than linear` when the last step costs over 1.5× the fitted seconds per audio second
 * (the sign of a quadratic stage); else `linear` when every point is within 5 % of the line; else
 * `no faster than linear` (single runs on a shared machine are uneven).
 */
function growthVerdict(points: Point[], line: { perSecond: number; worstMiss: number }): string {
  const [previous, last] = points.slice(-2) as [Point, Point];
  const lastStep = (last.seconds - previous.seconds) / (last.audioSeconds - previous.audioSeconds);
  if (lastStep > 1.5 * line.perSecond)
    return `grows faster than linear: the last step costs ${fixed(lastStep / line.perSecond, 2)}× the fitted rate`;
  return line.worstMiss <= 0.05 ? 'linear' : 'no faster than linear (single runs are uneven; see the marginal column)';
}

function seriesTable(series: Series): string[] {
  if (series.points.length === 0) return [`### ${series.name}`, '', series.note ?? 'not measured', ''];
  const first = series.points[0]!;
  const rows = series.points.map((p, i) => {
    const previous = series.points[i - 1];
    const marginal = previous ? (p.seconds - previous.seconds) / ((p.audioSeconds - previous.audioSeconds) / 60) : null;
    const rtf = p.seconds / p.audioSeconds;
    return `| ${fixed(p.audioSeconds / 60, 1)} | ${fixed(p.seconds, 1)} | ${fixed(rtf, 3)} | ${fixed(rtf / (first.seconds / first.audioSeconds), 2)} | ${fixed(p.seconds / (p.audioSeconds / 60), 2)} | ${fixed(marginal, 2)} |`;
  });
  const line = fitLine(series.points);
  const verdict = line
    ? `Fit: ${fixed(line.fixedSeconds, 1)} s fixed + ${fixed(line.perSecond, 4)} s per audio second (RTF at scale ${fixed(line.perSecond, 3)}); ` +
      `worst point off the line by ${fixed(line.worstMiss * 100, 1)} % of the longest run — ${growthVerdict(series.points, line)}.`
    : 'Fewer than 3 lengths: no linearity check.';
  return [
    `### ${series.name}`,
    '',
    '| Audio (min) | Seconds | RTF | RTF / RTF at the shortest | Seconds per audio minute | Marginal seconds per added audio minute |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
    verdict,
    '',
  ];
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(join(tmpdir(), 'bench-rtf-'));
  try {
    const asr = await startTranscriptionServer({ maxFileBytes: 30_000_000 });
    const series: Series[] = [];
    series.push(await engineSeries('PocketSphinx engine alone', createPocketsphinxEngine(), ENGINE_SECONDS, workDir));
    series.push(await sherpaSeries(workDir));
    series.push(await pipelineSeries('Whole pipeline, PocketSphinx', { RECOGNITION_ENGINE: 'pocketsphinx' }, ENGINE_SECONDS));
    const remoteEnv = { RECOGNITION_ENGINE: 'openai-compatible', ASR_BASE_URL: asr.baseUrl, ASR_MODEL: 'bench' };
    series.push(
      await pipelineSeries(
        "Whole pipeline, remote engine against the server double (the pipeline's own cost)",
        remoteEnv,
        REMOTE_SECONDS,
        () => asr.reset(),
      ),
    );
    await asr.close();
    await writeResult(
      'real-time-factor',
      [
        '# Real-time factor and its growth with audio length',
        '',
        'RTF = processing seconds / audio seconds (lower is faster; 1.0 = real time). Audio: real HiFi-TTS read-speech clips ' +
          'concatenated with ffmpeg to each length (bench/support/long-recordings.ts). One run per length, all in this run. ' +
          'Pipeline times are `metrics.total_time` of a prediction through the real service (HTTP, pg-boss on PostgreSQL, ' +
          'download, decode, VAD, recognition, formatting, database), so they include fixed costs such as the queue pick-up. ' +
          `PocketSphinx is measured on ${ENGINE_SECONDS.map((s) => s / 60).join(', ')} min only, to keep the run short on a ` +
          "shared machine (it ran between 0.1× and 1.4× real time here depending on the other load); the pipeline's own growth " +
          'up to 60 minutes is measured with the remote engine against a local OpenAI-compatible server double that answers ' +
          'at once. Linear means time = fixed cost + a constant ' +
          'cost per audio minute: the marginal column stays level and the RTF falls towards the fitted slope as the fixed cost ' +
          '(queue pick-up, process start-up, first requests) is spread.',
        '',
        ...series.flatMap(seriesTable),
      ],
      `npx tsx bench/real-time-factor.ts${FULL_RUN ? ' --full' : ''}`,
    );
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

await main();
