import type { ChildProcess } from 'node:child_process';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, usageLedger } from '@transcribe/core';
import type { FakeEngine } from '../../test-support/create-fake-engine.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  createKeyFor,
  createLinkPrediction,
  fakeEngineEnv,
  isSettled,
  waitForOutput,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { runScript, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = join(AUDIO_DIR, 'librispeech-test-clean', '1089-134686-0001.wav');

/**
 * A user's file host that counts downloads (whole GETs) per path and holds each path's requests until
 * the test opens it; `failFirst` answers the first download of a path 404 (failParked), `hangFirst`
 * never answers it (the client must give up). The check of a link before another user gets its
 * stored copy (HEAD, docs/caching-and-billing.md) is not a download: answered once the path is open, not counted.
 */
async function gatedServer(bytes: Buffer) {
  const hits = new Map<string, number>();
  const held = new Map<string, { open: boolean; waiting: ServerResponse[]; mode: 'serve' | 'failFirst' | 'hangFirst' }>();
  const gate = (path: string) => {
    let entry = held.get(path);
    if (!entry) held.set(path, (entry = { open: false, waiting: [], mode: 'serve' }));
    return entry;
  };
  const serve = (res: ServerResponse) =>
    void res.writeHead(200, { 'content-length': bytes.length, 'content-type': 'audio/wav' }).end(bytes);
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    if (req.method !== 'GET' || req.headers.range !== undefined) {
      if (gate(path).open) serve(res);
      else gate(path).waiting.push(res);
      return;
    }
    const count = (hits.get(path) ?? 0) + 1;
    hits.set(path, count);
    const entry = gate(path);
    if (count === 1 && entry.mode === 'hangFirst') return; // answers nothing, ever
    if (count === 1 && entry.mode === 'failFirst') {
      if (entry.open) res.writeHead(404).end('gone');
      else entry.waiting.push(res);
      return;
    }
    if (entry.open) serve(res);
    else entry.waiting.push(res);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    link: (path: string) => `${base}${path}`,
    hits: (path: string) => hits.get(path) ?? 0,
    mode: (path: string, mode: 'serve' | 'failFirst' | 'hangFirst') => void (gate(path).mode = mode),
    open(path: string) {
      const entry = gate(path);
      entry.open = true;
      for (const res of entry.waiting.splice(0)) serve(res);
    },
    /** Answers the parked first request of a `failFirst` path 404 (not retried) and keeps the path closed. */
    failParked(path: string) {
      for (const res of gate(path).waiting.splice(0, 1)) res.writeHead(404).end('gone');
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}

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

const recognitionLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('[fake-engine] recognize '))
    .map((line) => line.trim().split(' ').at(-1)!);

describe('same link, same moment: single flight across worker processes on PostgreSQL (spec 2.6)', () => {
  let dataDir: string;
  let database: TestDatabase;
  let files: Awaited<ReturnType<typeof gatedServer>>;
  let api: SpawnedService | null = null;
  let workers: ReturnType<typeof startWorker>[] = [];
  let sql: postgres.Sql;
  let keyA: string;
  let keyB: string;

  const started = async (id: string) =>
    (await sql<{ started_at: Date | null }[]>`SELECT started_at FROM predictions WHERE id = ${id}`)[0]?.started_at != null;
  const ledger = async (id: string) =>
    (
      await sql<
        { reason: string; amount: number; media_id: string | null; user_id: string }[]
      >`SELECT reason, amount, media_id, user_id FROM usage_ledger WHERE prediction_id = ${id}`
    )[0];
  const recognitions = () => workers.flatMap((worker) => recognitionLines(worker.output()));
  /** Waits until both predictions run, each in its own worker process (each worker takes one job at a time). */
  const bothRunning = async (ids: string[]) => {
    await expect.poll(async () => (await Promise.all(ids.map(started))).every(Boolean), { timeout: 60_000, interval: 100 }).toBe(true);
    await sleep(1500); // time for a second download to start, were there no single flight
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'single-flight-'));
    database = await createTestDatabase();
    files = await gatedServer(await readFile(CLIP));
    api = await spawnService(fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '0' }), SPAWN_TIMEOUT_MS);
    const workerEnv = fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '1', FAKE_ENGINE_DELAY_MS: '300', PRICE_PER_MINUTE: '1' });
    workers = [startWorker(workerEnv), startWorker(workerEnv)];
    await Promise.all(workers.map((worker) => waitForOutput(worker, /"component":"worker"[^\n]*"msg":"taking jobs/, SPAWN_TIMEOUT_MS)));
    keyA = await createKeyFor(fakeEngineEnv(dataDir, database.url), 'user a');
    keyB = await createKeyFor(fakeEngineEnv(dataDir, database.url), 'user b');
    sql = postgres(database.url, { max: 2, onnotice: () => {} });
  }, MULTI_PROCESS_TEST_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => worker.stop('SIGKILL')));
    await api?.kill('SIGKILL');
    await sql?.end();
    await files?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * Two predictions for `path` created at the same moment with `keys`; the link answers once both run.
   * The second's logs say it took the transcript from the cache only when both are one user's.
   */
  const sameMoment = async (path: string, keys: [string, string]) => {
    const ids = await Promise.all(keys.map((key) => createLinkPrediction(api!.url, key, { input: { audio: files.link(path) } })));
    await bothRunning(ids);
    expect(files.hits(path), 'downloads while the first is held').toBe(1);
    files.open(path);
    const done = await Promise.all(ids.map((id, n) => waitForPrediction(api!.url, keys[n]!, id, isSettled, 120_000)));
    for (const prediction of done) expect(prediction.status, String(prediction.error)).toBe('succeeded');
    expect(done[1]!.output).toEqual(done[0]!.output);
    expect(files.hits(path), 'downloads').toBe(1);
    const ran = recognitions().filter((id) => ids.includes(id));
    expect(ran, 'recognitions').toHaveLength(1);
    const first = ids.indexOf(ran[0]!); // the one that downloaded and recognised
    expect(String(done[first]!.logs)).toMatch(/downloaded \d+ bytes/);
    if (keys[0] === keys[1]) expect(String(done[1 - first]!.logs)).toContain('transcript taken from the cache');
    else expect(String(done[1 - first]!.logs)).not.toContain('cache'); // it would tell one user the other sent the link
    return { first: ids[first]!, second: ids[1 - first]! };
  };

  it(
    'should download and recognise once for two predictions of the same key, the second a free repeat (2.6.1, 2.6.2)',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const { first, second } = await sameMoment('/same-key.wav', [keyA, keyA]);
      const paid = await ledger(first);
      const repeat = await ledger(second);
      expect(paid?.reason).toBe('recognition');
      expect(paid?.amount).toBeGreaterThan(0);
      expect(repeat?.reason).toBe('free_repeat');
      expect(repeat?.amount).toBe(0);
      expect(repeat?.media_id).toBe(paid?.media_id);
    },
  );

  it(
    'should download and recognise once for two users, the second charged for the cached transcript (2.6.2)',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const { first, second } = await sameMoment('/two-users.wav', [keyA, keyB]);
      const paid = await ledger(first);
      const taken = await ledger(second);
      expect(paid?.reason).toBe('recognition');
      expect(taken?.reason).toBe('cached_transcript');
      expect(taken?.amount).toBeCloseTo(paid!.amount, 6);
      expect(taken?.media_id).toBe(paid?.media_id);
      expect(taken?.user_id).not.toBe(paid?.user_id);
    },
  );

  it(
    'should let the second do the work when the first fails at the link (upstream error)',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const path = '/first-fails.wav';
      files.mode(path, 'failFirst');
      const first = await createLinkPrediction(api!.url, keyA, { input: { audio: files.link(path) } });
      await expect.poll(() => files.hits(path), { timeout: 60_000, interval: 50 }).toBe(1);
      const second = await createLinkPrediction(api!.url, keyB, { input: { audio: files.link(path) } });
      await bothRunning([first, second]);
      expect(files.hits(path)).toBe(1);
      files.failParked(path); // the first download answers 404: the first prediction fails
      const failed = await waitForPrediction(api!.url, keyA, first, isSettled, 120_000);
      expect(failed.status).toBe('failed');
      await expect.poll(() => files.hits(path), { timeout: 60_000, interval: 50 }).toBe(2); // the second downloads itself
      files.open(path);
      const done = await waitForPrediction(api!.url, keyB, second, isSettled, 120_000);
      expect(done.status, String(done.error)).toBe('succeeded');
      expect(String(done.logs)).toMatch(/downloaded \d+ bytes/);
      expect(recognitions().filter((id) => id === second)).toHaveLength(1);
      expect(await ledger(first)).toBeUndefined();
      expect((await ledger(second))?.reason).toBe('recognition');
    },
  );

  it(
    'should let the second do the work when the first hangs at the link and is canceled',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const path = '/first-hangs.wav';
      files.mode(path, 'hangFirst');
      files.open(path); // every request but the first is answered at once
      const first = await createLinkPrediction(api!.url, keyA, { input: { audio: files.link(path) } });
      await expect.poll(() => files.hits(path), { timeout: 60_000, interval: 50 }).toBe(1);
      const second = await createLinkPrediction(api!.url, keyA, { input: { audio: files.link(path) } });
      await bothRunning([first, second]);
      expect(files.hits(path), 'the second waits instead of downloading').toBe(1);
      const cancel = await fetch(`${api!.url}/v1/replicate/v1/predictions/${first}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyA}` },
      });
      expect(cancel.status).toBe(200);
      const done = await waitForPrediction(api!.url, keyA, second, isSettled, 120_000);
      expect(done.status, String(done.error)).toBe('succeeded');
      expect(files.hits(path)).toBe(2);
      expect((await waitForPrediction(api!.url, keyA, first, isSettled)).status).toBe('canceled');
      expect(recognitions().filter((id) => id === first || id === second)).toEqual([second]);
      expect(await ledger(first)).toBeUndefined();
      expect((await ledger(second))?.reason).toBe('recognition');
    },
  );

  it(
    'should hand a waiting job back without spending a try when its worker stops, and run it on the next worker',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const path = '/stop-while-waiting.wav';
      files.mode(path, 'hangFirst');
      files.open(path);
      const first = await createLinkPrediction(api!.url, keyA, { input: { audio: files.link(path) } });
      await expect.poll(() => files.hits(path), { timeout: 60_000, interval: 50 }).toBe(1);
      const second = await createLinkPrediction(api!.url, keyB, { input: { audio: files.link(path) } });
      await bothRunning([first, second]);
      const [lease] = await sql<{ worker_id: string }[]>`SELECT worker_id FROM job_leases WHERE prediction_id = ${second}`;
      const index = workers.findIndex((worker) => worker.child.pid === Number(lease!.worker_id.split(':')[1]));
      expect(index).toBeGreaterThanOrEqual(0);
      const stopAt = Date.now();
      expect(await workers[index]!.stop('SIGTERM')).toBe(0);
      expect(Date.now() - stopAt, 'stopped without waiting for SHUTDOWN_TIMEOUT_MS (30 s)').toBeLessThan(20_000);
      const job = async () =>
        (
          await sql<
            { state: string; retry_count: number }[]
          >`SELECT state, retry_count FROM pgboss.job WHERE name = 'transcribe' AND data->>'predictionId' = ${second}`
        )[0];
      expect((await job())?.retry_count).toBe(0);
      expect((await job())?.state).not.toBe('active');
      workers[index] = startWorker(
        fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '1', FAKE_ENGINE_DELAY_MS: '300', PRICE_PER_MINUTE: '1' }),
      );
      await waitForOutput(workers[index]!, /"component":"worker"[^\n]*"msg":"taking jobs/, SPAWN_TIMEOUT_MS);
      await fetch(`${api!.url}/v1/replicate/v1/predictions/${first}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${keyA}` },
      });
      const done = await waitForPrediction(api!.url, keyB, second, isSettled, 120_000);
      expect(done.status, String(done.error)).toBe('succeeded');
      expect(files.hits(path)).toBe(2);
      expect((await job())?.retry_count).toBe(0);
    },
  );
});

describe('same link, same moment in one process on PGlite (in-process single flight)', () => {
  let t: TestService;
  let files: Awaited<ReturnType<typeof gatedServer>>;

  beforeAll(async () => {
    t = await startTestService('pglite', {
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      FAKE_ENGINE_DELAY_MS: '300',
      WORKER_CONCURRENCY: '2',
      PRICE_PER_MINUTE: '1',
    });
    files = await gatedServer(await readFile(CLIP));
  }, SPAWN_TIMEOUT_MS);

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it(
    'should download and recognise once, with the ledger rows of spec 2.6.2 for the same and another user',
    { timeout: 240_000 },
    async () => {
      const other = await createApiKey(t.service.ctx.database.db, 'other user');
      const engine = t.service.ctx.engine as FakeEngine;
      const create = async (key: string, path: string) => {
        const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ input: { audio: files.link(path) } }),
        });
        return ((await response.json()) as { id: string }).id;
      };
      for (const [path, keys, expected] of [
        ['/pglite-same.wav', [t.key, t.key], ['free_repeat', 'recognition']],
        ['/pglite-two.wav', [t.key, other.secret], ['cached_transcript', 'recognition']],
      ] as const) {
        const callsBefore = engine.stats.calls;
        const ids = await Promise.all(keys.map((key) => create(key, path)));
        await expect.poll(() => files.hits(path), { timeout: 60_000, interval: 50 }).toBe(1);
        await sleep(1500); // time for a second download to start, were there no single flight
        expect(files.hits(path)).toBe(1);
        files.open(path);
        const done = await Promise.all(ids.map((id, n) => pollPrediction(t.replicateBase, keys[n]!, id)));
        for (const prediction of done) expect(prediction.status, String(prediction.error)).toBe('succeeded');
        expect(done[1]!.output).toEqual(done[0]!.output);
        expect(files.hits(path)).toBe(1);
        expect(engine.stats.calls - callsBefore).toBe(1);
        const rows = await t.service.ctx.database.db.select().from(usageLedger);
        expect(
          rows
            .filter((row) => ids.includes(row.predictionId))
            .map((row) => row.reason)
            .sort(),
        ).toEqual(expected);
      }
    },
  );
});
