/**
 * Benchmark: what a long, honest recording of silence at a low sample rate costs a prediction, in disk
 * and time. The file of the report: 23.3 h of 1 Hz stereo digital silence as FLAC (15.6 kB, header
 * true, under the 24 h cap: `ffmpeg -f lavfi -i anullsrc=r=1:cl=stereo -t 84000 -c:a flac`), the same
 * at 3 h, and in mono (which takes the mono path: the cut decode, then VAD on what is left). Each is uploaded to the real service (a child process, `npm start`'s entry, fake engine, real
 * ffmpeg and Silero VAD) and polled to its end, while DATA_DIR's size is sampled every 20 ms: the peak
 * it grew by is what the prediction had on disk at once (upload, work files, database growth).
 * Baselines in the same run: an 11 s speech recording (jfk.wav) through the same service, and the old
 * decode path (every frame written: decodeChannelsToPcm then decodeToPcm without `cutSilences`, as the
 * service ran them) on the 3 h file, timed and sized; in `--full`, on the 23.3 h file too (8 GB of disk).
 *
 * Run: `npx tsx bench/low-rate-silence.ts [--full]`. Writes bench/results/low-rate-silence.md.
 */
import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeChannelsToPcm, decodeToPcm, measureFolderBytes } from '@transcribe/core';
import { makeLowRateSilence } from '@transcribe/core/testing';
import {
  createKeyFor,
  fakeEngineEnv,
  isSettled,
  waitForPrediction,
  SPAWN_TIMEOUT_MS,
} from '../apps/api/src/test-support/fake-engine-service.ts';
import { AUDIO_DIR } from '../apps/api/src/test-support/shared-paths.ts';
import { spawnService } from '../apps/api/src/test-support/spawn-service.ts';
import { FULL_RUN, fixed, megabytes, writeResult } from './support/bench-kit.ts';

interface Row {
  what: string;
  audioHours: number;
  fileBytes: number;
  status: string;
  wallSeconds: number;
  /** Largest growth of DATA_DIR (or of the work folder for the old path) over its size before, bytes. */
  peakBytes: number;
  note: string;
}

/** Samples the size of `folder` every 20 ms while `work` runs; returns its result and the peak growth. */
async function withPeak<T>(folder: string, work: () => Promise<T>): Promise<{ result: T; peakBytes: number; seconds: number }> {
  const before = await measureFolderBytes(folder);
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, await measureFolderBytes(folder));
      await sleep(20);
    }
  })();
  const started = performance.now();
  try {
    const result = await work();
    return { result, peakBytes: peak - before, seconds: (performance.now() - started) / 1000 };
  } finally {
    sampling = false;
    await sampler;
  }
}

async function upload(url: string, key: string, body: Buffer): Promise<string> {
  const response = await fetch(`${url}/v1/replicate/v1/models/service/transcribe/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream', 'x-service-body-field': 'input.audio' },
    body,
  });
  const created = (await response.json()) as { id?: string };
  if (response.status !== 201 || !created.id) throw new Error(`create answered ${response.status}: ${JSON.stringify(created)}`);
  return created.id;
}

/** The old decode path: the two channel files, then (the channels being the same silence) the mono file, every frame written. */
async function oldDecode(file: string, workDir: string, hours: number): Promise<Row> {
  const { result, peakBytes, seconds } = await withPeak(workDir, async () => {
    const left = join(workDir, 'channel-left.wav');
    const right = join(workDir, 'channel-right.wav');
    await decodeChannelsToPcm(file, [left, right], { statedSeconds: hours * 3600 });
    const written = (await stat(left)).size + (await stat(right)).size;
    await rm(left);
    await rm(right);
    const mono = join(workDir, 'audio.wav');
    await decodeToPcm(file, mono, { statedSeconds: hours * 3600 });
    const total = written + (await stat(mono)).size;
    await rm(mono);
    return total;
  });
  return {
    what: `old decode path (every frame written), ${hours} h file: decode only`,
    audioHours: hours,
    fileBytes: (await stat(file)).size,
    status: '—',
    wallSeconds: seconds,
    peakBytes,
    note: `${megabytes(result)} MB written in all`,
  };
}

/** What the old path's 3 h row means for the 23.3 h file (decoding is linear in the length), unless measured (--full). */
function describeOldPath(rows: readonly Row[]): string[] {
  const old = rows.find((row) => row.what.startsWith('old') && row.audioHours === 3);
  const now = rows.find((row) => row.what.includes('23.3 h of 1 Hz stereo'));
  if (!old || !now || rows.some((row) => row.what.startsWith('old') && row.audioHours > 3)) return [];
  const scale = 84_000 / 10_800;
  return [
    `The old path is linear in the length: at 23.3 h it would peak at ${fixed((old.peakBytes * scale) / 1e9, 1)} GB (the two channel` +
      ` files) and spend about ${fixed(old.wallSeconds * scale, 0)} s in decoding alone at this run's speed, before Silero went over` +
      ` 23.3 h of zeros (the report: more than 7 minutes in all). Now: ${megabytes(now.peakBytes)} MB and ${fixed(now.wallSeconds, 0)} s` +
      ' in all (`--full` measures the old path at 23.3 h too).',
  ];
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-low-rate-'));
  const dataDir = join(dir, 'data');
  const rows: Row[] = [];
  try {
    const files = { short: join(dir, 'silence-3h.flac'), long: join(dir, 'silence-23h.flac'), mono: join(dir, 'silence-23h-mono.flac') };
    await makeLowRateSilence(files.short, { seconds: 3 * 3600 });
    await makeLowRateSilence(files.long, { seconds: 84_000 });
    await makeLowRateSilence(files.mono, { seconds: 84_000, channels: 1 });

    const env = fakeEngineEnv(dataDir, null, { RATE_LIMIT_PER_MINUTE: '0' });
    const service = await spawnService(env, SPAWN_TIMEOUT_MS);
    try {
      const key = await createKeyFor(env);
      const cases = [
        { what: 'baseline: jfk.wav (11 s of speech, 16 kHz mono WAV)', file: join(AUDIO_DIR, 'jfk.wav'), hours: 11 / 3600 },
        { what: 'now: 3 h of 1 Hz stereo silence (FLAC)', file: files.short, hours: 3 },
        { what: 'now: 23.3 h of 1 Hz stereo silence (FLAC), the report’s file', file: files.long, hours: 84_000 / 3600 },
        { what: 'now: 23.3 h of 1 Hz mono silence (FLAC): the mono path, cut decode then VAD', file: files.mono, hours: 84_000 / 3600 },
      ];
      for (const { what, file, hours } of cases) {
        const body = await readFile(file);
        const { result, peakBytes, seconds } = await withPeak(dataDir, async () => {
          const id = await upload(service.url, key, body);
          return waitForPrediction(service.url, key, id, isSettled, 1_800_000);
        });
        const decoded = /decoded [^\n]*/.exec(String(result.logs))?.[0] ?? '';
        const metrics = result.metrics as { predict_time?: number } | undefined;
        rows.push({
          what,
          audioHours: hours,
          fileBytes: body.length,
          status: String(result.status),
          wallSeconds: seconds,
          peakBytes,
          note: `predict_time ${fixed(metrics?.predict_time ?? Number.NaN, 1)} s; log: "${decoded}"`,
        });
        console.log(`  ${what}: ${String(result.status)} in ${fixed(seconds, 1)} s, peak +${megabytes(peakBytes)} MB`);
      }
    } catch (error) {
      console.error(`the service's last output:\n${service.output().slice(-4000)}`);
      throw error;
    } finally {
      await service.kill('SIGTERM');
    }

    const workDir = join(dir, 'old-path');
    await mkdir(workDir, { recursive: true });
    rows.push(await oldDecode(files.short, workDir, 3));
    console.log(`  ${rows.at(-1)!.what}: ${fixed(rows.at(-1)!.wallSeconds, 1)} s, peak +${megabytes(rows.at(-1)!.peakBytes)} MB`);
    if (FULL_RUN) rows.push(await oldDecode(files.long, workDir, 84_000 / 3600));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  const baseline = rows[0]!;
  await writeResult(
    'low-rate-silence',
    [
      '# Long honest recordings of silence at a low rate: disk and time of one prediction',
      '',
      'Each recording uploaded to the real service (child process, fake engine, real ffmpeg and Silero VAD) and polled to' +
        ' its end; DATA_DIR sampled every 20 ms, the peak reported as its growth over the size before the upload (upload,' +
        ' work files, database). Goal for the 23.3 h file: a terminal state within 5 minutes, at most 200 MB at once.' +
        ' The old decode path is measured on the same files in this run (decode only: the time a prediction spent before' +
        ' its VAD over the whole length, which came on top).',
      '',
      '| Case | Audio (h) | File (bytes) | Status | Wall (s) | Wall / baseline | Peak disk (MB) | Notes |',
      '|---|---|---|---|---|---|---|---|',
      ...rows.map(
        (row) =>
          `| ${row.what} | ${fixed(row.audioHours, 3)} | ${row.fileBytes} | ${row.status} | ${fixed(row.wallSeconds, 1)} | ` +
          `${fixed(row.wallSeconds / baseline.wallSeconds, 1)}× | ${megabytes(row.peakBytes)} | ${row.note} |`,
      ),
      '',
      ...describeOldPath(rows),
    ],
    `npx tsx bench/low-rate-silence.ts${FULL_RUN ? ' --full' : ''}`,
  );
}

await main();
