import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  createKeyFor,
  createLinkPrediction,
  fakeEngineEnv,
  getPrediction,
  isSettled,
  waitForOutput,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { readMetric } from '../test-support/scrape-metric.ts';
import { runScript, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

const LONG = 'long_hifitts6097_concat_16k.wav'; // 333 s
const SHORT = 'jfk.wav'; // 11 s

interface Created {
  id: string;
  key: string;
  owner: string;
}

/** Each prediction's `started_at` (ms), or null while it waits. */
async function startTimes(url: string, created: Created[]): Promise<Map<string, number | null>> {
  const times = new Map<string, number | null>();
  for (const { id, key } of created) {
    const prediction = await getPrediction(url, key, id);
    times.set(id, prediction.started_at ? Date.parse(String(prediction.started_at)) : null);
  }
  return times;
}

/** The owners of the started predictions in the order they started. */
async function startOrder(url: string, created: Created[]): Promise<string[]> {
  const times = await startTimes(url, created);
  return created
    .filter(({ id }) => times.get(id) !== null)
    .sort((a, b) => times.get(a.id)! - times.get(b.id)!)
    .map(({ owner }) => owner);
}

/** Largest |#a − #b| over every prefix of `order` (two owners). */
function largestLead(order: string[], a: string, b: string): number {
  let lead = 0;
  let difference = 0;
  for (const owner of order) {
    difference += owner === a ? 1 : owner === b ? -1 : 0;
    lead = Math.max(lead, Math.abs(difference));
  }
  return lead;
}

/** Creates `count` predictions of `file` for one key (distinct links: no cache or single-flight sharing). */
async function createMany(url: string, files: FileServer, key: string, owner: string, file: string, count: number): Promise<Created[]> {
  const created: Created[] = [];
  for (let n = 0; n < count; n += 1) {
    created.push({ id: await createLinkPrediction(url, key, { input: { audio: `${files.url}/${file}?${owner}=${n}` } }), key, owner });
  }
  return created;
}

async function cancelAll(url: string, created: Created[]): Promise<void> {
  for (const { id, key } of created) {
    await fetch(`${url}/v1/replicate/v1/predictions/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
  }
}

/** Jobs per key in the alternation tests: enough for a dozen contested turns, few enough to stay cheap. */
const PER_KEY = 12;

/**
 * PER_KEY jobs of each of two keys, the second key's queued after the first's: from the moment the
 * second key queued, as long as both keys have jobs waiting, workers take their jobs in turn (no
 * prefix of that start order has more than one job more of one key than of the other).
 */
async function expectAlternation(url: string, files: FileServer, keys: [string, string]): Promise<void> {
  const first = await createMany(url, files, keys[0], 'a', SHORT, PER_KEY);
  // The second key queues while the first key's first two jobs run (the fake engine's delay): no job
  // of the first key is then between a worker's fetch and its started_at, which would blur the order.
  for (const { id } of first.slice(0, 2)) await waitForPrediction(url, keys[0], id, (p) => p.started_at !== null, 120_000);
  await sleep(300);
  const second = await createMany(url, files, keys[1], 'b', SHORT, PER_KEY);
  for (const { id, key } of [...first, ...second]) await waitForPrediction(url, key, id, isSettled, 240_000);
  const secondQueued = Date.parse(String((await getPrediction(url, keys[1], second[0]!.id)).created_at));
  const times = await startTimes(url, first);
  const startedBefore = first.filter(({ id }) => times.get(id)! <= secondQueued).length; // only the first key had jobs then
  const order = await startOrder(url, [...first, ...second]);
  expect(order).toHaveLength(2 * PER_KEY);
  const contested = order.slice(startedBefore, order.lastIndexOf('a') + 1); // both keys waiting
  console.log(`start order: ${order.join('')} (${startedBefore} of a started before b queued)`);
  expect(contested.filter((owner) => owner === 'b').length).toBeGreaterThanOrEqual(PER_KEY - startedBefore - 1);
  expect(largestLead(contested, 'a', 'b')).toBeLessThanOrEqual(1);
}

/**
 * The job queue is fair across keys (core resources/queue/: start-time fair queueing through
 * pg-boss's priority), for every worker process on one database, not only among the jobs one worker
 * has already taken.
 */
describe('fair job queue across keys', () => {
  let files: FileServer;

  beforeAll(async () => {
    files = await serveFiles(AUDIO_DIR);
  });

  afterAll(async () => {
    await files?.close();
  });

  describe('one service (PGlite), WORKER_CONCURRENCY=2', () => {
    let dataDir: string;
    let service: SpawnedService | null = null;
    let env: Record<string, string>;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'fair-queue-'));
      env = fakeEngineEnv(dataDir, null, { WORKER_CONCURRENCY: '2', FAKE_ENGINE_DELAY_MS: '1500' });
      service = await spawnService(env, SPAWN_TIMEOUT_MS);
    }, SPAWN_TIMEOUT_MS);

    afterAll(async () => {
      await service?.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    });

    it(
      "should start key B's one 11 s clip as soon as a slot frees, though key A queued fifty 333 s recordings before it",
      { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
      async () => {
        const [keyA, keyB] = [await createKeyFor(env, 'a'), await createKeyFor(env, 'b')];
        const many = await createMany(service!.url, files, keyA, 'a', LONG, 50);
        for (const { id } of many.slice(0, 2)) await waitForPrediction(service!.url, keyA, id, (p) => p.started_at !== null, 120_000); // A holds both slots
        await sleep(500); // both runs well under way (a job a worker has fetched shows started_at a moment later)
        const bId = await createLinkPrediction(service!.url, keyB, { input: { audio: `${files.url}/${SHORT}?b` } });
        const bCreated = Date.parse(String((await getPrediction(service!.url, keyB, bId)).created_at));
        await waitForPrediction(service!.url, keyB, bId, (p) => p.started_at !== null, 400_000);
        const times = await startTimes(service!.url, many);
        const bStarted = Date.parse(String((await getPrediction(service!.url, keyB, bId)).started_at));
        const aStartedBetween = many.filter(({ id }) => times.get(id) !== null && times.get(id)! > bCreated && times.get(id)! < bStarted);
        const aStartedBefore = many.filter(({ id }) => times.get(id) !== null && times.get(id)! <= bCreated);
        console.log(`A started before B was queued: ${aStartedBefore.length}; between B's create and its start: ${aStartedBetween.length}`);
        expect(aStartedBetween).toHaveLength(0); // the first slot to free went to B
        expect(aStartedBefore.length).toBeLessThanOrEqual(4); // and A held only the slots (a slot or two freed meanwhile)
        await cancelAll(service!.url, many);
      },
    );

    it('should alternate two keys of a dozen jobs each within one', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
      const keys: [string, string] = [await createKeyFor(env, 'c'), await createKeyFor(env, 'd')];
      await expectAlternation(service!.url, files, keys);
    });

    it('should count the waits by engine and the errors of the estimated starts the logs said in /metrics', async () => {
      const text = await (await fetch(`${service!.url}/metrics`)).text();
      expect(readMetric(text, 'transcribe_queue_wait_seconds_count{engine="fake"}')).toBeGreaterThanOrEqual(2 * PER_KEY);
      const said = ['late', 'early'].map((direction) =>
        readMetric(text, `transcribe_queue_start_estimate_error_seconds_count{engine="fake",direction="${direction}"}`),
      );
      expect(said[0]! + said[1]!).toBeGreaterThan(0); // the queue above waited long enough for its logs to say the wait
    });
  });

  describe('two `npm run worker` processes on PostgreSQL', () => {
    let dataDir: string;
    let database: TestDatabase;
    let api: SpawnedService | null = null;
    const workers: { child: ChildProcess; output: () => string }[] = [];

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'fair-queue-pg-'));
      database = await createTestDatabase();
    });

    afterAll(async () => {
      for (const worker of workers) worker.child.kill('SIGKILL');
      await api?.kill('SIGKILL');
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it(
      'should alternate two keys of a dozen jobs each within one across the workers',
      { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
      async () => {
        api = await spawnService(fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '0' }), SPAWN_TIMEOUT_MS);
        const workerEnv = fakeEngineEnv(dataDir, database.url, {
          WORKER_CONCURRENCY: '1',
          FAKE_ENGINE_DELAY_MS: '1500',
          LOG_LEVEL: 'info',
        });
        for (let n = 0; n < 2; n += 1) {
          const child = runScript('apps/api/src/worker-main.ts', [], workerEnv);
          let output = '';
          child.stdout?.on('data', (chunk) => (output += chunk));
          child.stderr?.on('data', (chunk) => (output += chunk));
          workers.push({ child, output: () => output });
        }
        await Promise.all(workers.map((worker) => waitForOutput(worker, /"component":"worker"[^\n]*"msg":"taking jobs/, SPAWN_TIMEOUT_MS)));
        const env = fakeEngineEnv(dataDir, database.url);
        const keys: [string, string] = [await createKeyFor(env, 'a'), await createKeyFor(env, 'b')];
        await expectAlternation(api.url, files, keys);
        const perWorker = workers.map((worker) => (worker.output().match(/\[fake-engine\] recognize /g) ?? []).length);
        expect(perWorker.every((count) => count > 0)).toBe(true); // both processes took jobs
      },
    );
  });
});
