import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  countLogLines,
  createKeyFor,
  createLinkPrediction,
  fakeEngineEnv,
  isSettled,
  waitForOutput,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { scrapeMetrics } from '../test-support/scrape-metric.ts';
import { freePort, runScript, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

const PREDICTIONS = 30;

/** `npm run worker` as a child process, with its output collected. */
function startWorker(env: Record<string, string>) {
  const child: ChildProcess = runScript('apps/api/src/worker-main.ts', [], { LOG_LEVEL: 'info', ...env }); // info: its `taking jobs` line is awaited
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return {
    child,
    output: () => output,
    stop: (signal: NodeJS.Signals = 'SIGTERM') =>
      new Promise<number | null>((done) => {
        if (child.exitCode !== null) return done(child.exitCode);
        child.once('exit', (code) => done(code));
        child.kill(signal);
      }),
  };
}

function recognitionsOf(output: string, id: string): number {
  return output.split('\n').filter((line) => line.trim() === `[fake-engine] recognize ${id}`).length;
}

describe('two `npm run worker` processes on one PostgreSQL queue', () => {
  let dataDir: string;
  let database: TestDatabase;
  let files: FileServer;
  let api: SpawnedService | null = null;
  let workers: ReturnType<typeof startWorker>[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'two-workers-'));
    database = await createTestDatabase();
    files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await api?.kill('SIGKILL');
    await files?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should run each of 30 predictions exactly once across the workers', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
    api = await spawnService(fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '0' }), SPAWN_TIMEOUT_MS);
    const workerEnv = fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '2', FAKE_ENGINE_DELAY_MS: '300' });
    const metricsPorts = [await freePort(), await freePort()];
    workers = metricsPorts.map((port) => startWorker({ ...workerEnv, METRICS_PORT: String(port) }));
    await Promise.all(workers.map((worker) => waitForOutput(worker, /"component":"worker"[^\n]*"msg":"taking jobs/, SPAWN_TIMEOUT_MS)));
    const key = await createKeyFor(fakeEngineEnv(dataDir, database.url));
    const ids: string[] = [];
    for (let n = 0; n < PREDICTIONS; n++) {
      ids.push(await createLinkPrediction(api.url, key, { input: { audio: `${files.url}/1089-134686-0001.wav?n=${n}` } }));
    }
    for (const id of ids) {
      const done = await waitForPrediction(api.url, key, id, isSettled, 120_000);
      expect(done.status, String(done.error)).toBe('succeeded');
      expect(countLogLines(done.logs, 'succeeded')).toBe(1);
    }
    const perWorker = workers.map((worker) => ids.reduce((sum, id) => sum + recognitionsOf(worker.output(), id), 0));
    console.log(`recognitions per worker: ${perWorker.join(', ')}`);
    for (const id of ids) {
      expect(
        workers.reduce((sum, worker) => sum + recognitionsOf(worker.output(), id), 0),
        `runs of ${id}`,
      ).toBe(1);
    }
    expect(api.output()).not.toMatch(/\[fake-engine\] recognize/); // WORKER_CONCURRENCY=0: the API runs no job
    expect(perWorker.every((count) => count > 0)).toBe(true);
    // Each worker serves the metrics of the predictions it ran (METRICS_PORT): together, all 30, each stage timed once.
    const series = [
      'transcribe_stage_seconds_count{stage="download"}',
      'transcribe_stage_seconds_count{stage="vad"}',
      'transcribe_stage_seconds_count{stage="recognition"}',
    ];
    const scraped = await Promise.all(metricsPorts.map((port) => scrapeMetrics(`http://127.0.0.1:${port}`, ...series)));
    for (const [k, name] of series.entries()) expect(scraped[0]![k]! + scraped[1]![k]!, name).toBe(PREDICTIONS);
    expect(scraped.map((values) => values[2])).toEqual(perWorker); // each worker counts its own recognitions
    expect((await fetch(`http://127.0.0.1:${metricsPorts[0]}/v1/predictions`)).status).toBe(404); // nothing but /metrics
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    try {
      // pg-boss completes a job after its handler returns, which is after the prediction was written
      // `succeeded`: on a loaded machine the last jobs may still be `active` for a moment, so wait for them.
      const readJobs = () =>
        sql<{ id: string; state: string; retry_count: number }[]>`SELECT id, state, retry_count FROM pgboss.job WHERE name = 'transcribe'`;
      let jobs = await readJobs();
      for (let waited = 0; jobs.some((job) => job.state === 'active') && waited < 30_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        jobs = await readJobs();
      }
      expect(jobs).toHaveLength(PREDICTIONS);
      expect(jobs.filter((job) => job.state !== 'completed' || job.retry_count !== 0)).toEqual([]); // each ran once, no try spent
    } finally {
      await sql.end();
    }
    expect(await Promise.all(workers.map((worker) => worker.stop('SIGTERM')))).toEqual([0, 0]);
  });
});
