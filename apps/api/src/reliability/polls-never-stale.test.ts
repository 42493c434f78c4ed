import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PREDICTION_BROADCAST, predictions } from '@transcribe/core';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** The pollers below send thousands of GETs a minute with one key. */
const UNLIMITED_READS = { RATE_LIMIT_READS_PER_MINUTE: '0' };

/** What a poll shows of a prediction's state: every write changes one of these (prediction-body-cache.ts). */
interface Shown {
  status: string;
  logs: string;
  started: boolean;
  audio: boolean;
}

const progressOf = (s: Shown) =>
  (['succeeded', 'failed', 'canceled'].includes(s.status) ? 2 ** 40 : 0) + s.logs.length + (s.started ? 1 : 0) + (s.audio ? 1 : 0);

const shownOfJson = (body: Record<string, unknown>): Shown => ({
  status: String(body.status),
  logs: String(body.logs ?? ''),
  started: body.started_at !== null,
  audio: (body.metrics as Record<string, unknown> | undefined)?.audio_duration !== undefined,
});

const shownOfRow = (row: { status: string; logs: string; startedAt: Date | null; audioSeconds: number | null }): Shown => ({
  status: row.status,
  logs: row.logs,
  started: row.startedAt !== null,
  audio: row.audioSeconds !== null,
});

function client(base: string, key: string) {
  const auth = { authorization: `Bearer ${key}` };
  return {
    async create(audio: string): Promise<string> {
      const response = await fetch(`${base}/v1/models/service/transcribe/predictions`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { audio } }),
      });
      expect(response.status).toBe(201);
      return ((await response.json()) as { id: string }).id;
    },
    async get(id: string, headers: Record<string, string> = {}) {
      const response = await fetch(`${base}/v1/predictions/${id}`, { headers: { ...auth, ...headers } });
      const text = await response.text();
      return {
        status: response.status,
        etag: response.headers.get('etag'),
        text,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
    },
    async cancel(id: string) {
      return fetch(`${base}/v1/predictions/${id}/cancel`, { method: 'POST', headers: auth });
    },
  };
}

/**
 * Pollers that GET `id` back to back until `done` (keeping the API's cached answer hot, so a missed
 * invalidation would be served) and check that each one never sees an older state than its
 * previous answer. Returns how many polls they made.
 */
function startPollers(api: ReturnType<typeof client>, id: string, count: number) {
  let stopped = false;
  const failures: string[] = [];
  let polls = 0;
  const loops = Array.from({ length: count }, async () => {
    let last = -1;
    while (!stopped) {
      const { status, body } = await api.get(id);
      if (status !== 200) failures.push(`status ${status}`);
      const progress = progressOf(shownOfJson(body));
      if (progress < last) failures.push(`went back from ${last} to ${progress}`);
      last = progress;
      polls += 1;
    }
  });
  return {
    failures,
    get polls() {
      return polls;
    },
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/**
 * Spec 4.3 and docs/architecture.md ("Where a poll's answer comes from"): polls of unfinished
 * predictions are answered from memory, yet a poll made after a change's writer returned shows that
 * change or a later one, and no poll shows an older state than the previous one.
 */
describe('polls are never stale: API and worker in separate processes on PostgreSQL', () => {
  let database: TestDatabase;
  let worker: TestService;
  let api: SpawnedService;
  let apiDir: string;
  let files: FileServer;
  let watcher: postgres.Sql;
  let side: postgres.Sql;
  /** token → nonces of the watchers that confirmed it. */
  const acks = new Map<string, Set<string>>();
  /** The prediction whose changes are checked as they are announced, and what the checks found. */
  let target: string | null = null;
  const checks: { shown: Shown; polled: Shown }[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    files = await serveFiles(AUDIO_DIR);
    const env = {
      DATABASE_URL: database.url,
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      FAKE_ENGINE_DELAY_MS: '1500',
      ...UNLIMITED_READS,
    };
    // The worker runs in this process; the API in a child process of its own (WORKER_CONCURRENCY=0).
    worker = await startTestService('postgres', { ...env, WORKER_CONCURRENCY: '1' }, { http: false });
    apiDir = await mkdtemp(join(tmpdir(), 'polls-api-'));
    api = await spawnService({ ...env, DATA_DIR: apiDir, WORKER_CONCURRENCY: '0', ALLOW_PRIVATE_NETWORK: '1' });
    side = postgres(database.url, { max: 2, onnotice: () => {} });
    await side.listen(PREDICTION_BROADCAST.acksChannel, (payload) => {
      const [token, nonce] = payload.split(':') as [string, string];
      if (!acks.has(token)) acks.set(token, new Set());
      acks.get(token)!.add(nonce);
    });
    // A watcher of our own, counted like the API's: each writer waits for its confirmation too, so
    // while it holds one, the worker cannot make its next write and the row stays as announced.
    watcher = postgres(database.url, {
      max: 1,
      onnotice: () => {},
      connection: { application_name: PREDICTION_BROADCAST.watcherApplicationName },
    });
    const polls = client(`${api.url}/v1/replicate`, worker.key);
    await watcher.listen(PREDICTION_BROADCAST.channel, (payload) => {
      if (payload.startsWith('ping:')) return;
      const [token, id] = payload.split(';') as [string, string];
      void (async () => {
        if (id === target) {
          // Wait for the API process's confirmation, as the writer does; then a poll must show the row.
          const deadline = Date.now() + 1_500;
          while (![...(acks.get(token) ?? [])].some((nonce) => nonce !== 'test') && Date.now() < deadline) await sleep(2);
          const [row] = await worker.service.ctx.database.db.select().from(predictions).where(eq(predictions.id, id));
          const polled = await polls.get(id);
          checks.push({ shown: shownOfRow(row!), polled: shownOfJson(polled.body) });
        }
        await side.unsafe('SELECT pg_notify($1, $2)', [PREDICTION_BROADCAST.acksChannel, `${token}:test`]);
      })();
    });
  }, 120_000);

  afterAll(async () => {
    await watcher?.end();
    await side?.end();
    await api?.kill();
    await worker?.stop();
    await files?.close();
    await database?.drop();
    if (apiDir) await rm(apiDir, { recursive: true, force: true });
  });

  it(
    'should show every change (started, each log line, its end) to the very next poll, and never go back',
    { timeout: 120_000 },
    async () => {
      const polls = client(`${api.url}/v1/replicate`, worker.key);
      for (const [audio, end] of [
        [`${files.url}/jfk.wav`, 'succeeded'],
        [`${files.url}/missing.wav`, 'failed'],
      ] as const) {
        checks.length = 0;
        const id = await polls.create(audio);
        target = id;
        const pollers = startPollers(polls, id, 3);
        const done = await pollPrediction(`${api.url}/v1/replicate`, worker.key, id);
        await sleep(200);
        await pollers.stop();
        target = null;
        expect(done.status).toBe(end);
        expect(pollers.failures).toEqual([]);
        // Started, log lines, the end: each checked the moment the API confirmed it.
        expect(checks.length).toBeGreaterThanOrEqual(end === 'succeeded' ? 4 : 2);
        for (const check of checks) expect(check.polled).toEqual(check.shown);
        expect(checks.at(-1)!.shown.status).toBe(end);
        expect(pollers.polls).toBeGreaterThan(checks.length);
      }
    },
  );

  it('should show a cancel made through the API to the next poll', { timeout: 60_000 }, async () => {
    const polls = client(`${api.url}/v1/replicate`, worker.key);
    const id = await polls.create(`${files.url}/jfk.wav`);
    for (let i = 0; i < 5; i += 1) await polls.get(id); // cached as processing
    expect((await polls.cancel(id)).status).toBe(200);
    expect((await polls.get(id)).body.status).toBe('canceled');
  });

  it('should answer If-None-Match with 304 and no body while nothing changed, and 200 once it did', { timeout: 60_000 }, async () => {
    const polls = client(`${api.url}/v1/replicate`, worker.key);
    const id = await polls.create(`${files.url}/jfk.wav`);
    const first = await polls.get(id);
    expect(first.etag).toMatch(/^"[\w-]+"$/);
    const again = await polls.get(id, { 'if-none-match': first.etag! });
    // Unchanged since: 304 and no body; changed meanwhile (the worker runs): 200 with another tag.
    if (again.status === 304) expect([again.text, again.etag]).toEqual(['', first.etag]);
    else expect([again.status, again.etag === first.etag]).toEqual([200, false]);
    const done = await pollPrediction(`${api.url}/v1/replicate`, worker.key, id);
    const final = await polls.get(id, { 'if-none-match': first.etag! });
    expect(final.status).toBe(200);
    expect(final.body.status).toBe(done.status);
    const unchanged = await polls.get(id, { 'if-none-match': `W/${final.etag!}, "other"` });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
  });
});

describe('polls are never stale: the default service on PGlite, in one process', () => {
  let t: TestService;
  let files: FileServer;

  beforeAll(async () => {
    t = await startTestService('pglite', {
      NODE_ENV: 'test',
      RECOGNITION_ENGINE: 'fake',
      FAKE_ENGINE_DELAY_MS: '1500',
      ...UNLIMITED_READS,
    });
    files = await serveFiles(AUDIO_DIR);
  }, 60_000);

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it('should never show less than the row held before the poll was sent, and never go back', { timeout: 60_000 }, async () => {
    const polls = client(t.replicateBase, t.key);
    const id = await polls.create(`${files.url}/jfk.wav`);
    const pollers = startPollers(polls, id, 2);
    const seen = new Set<string>();
    const stale: string[] = [];
    for (;;) {
      // The row read directly (no cache) before the poll is sent: the poll must show at least that.
      const [row] = await t.service.ctx.database.db.select().from(predictions).where(eq(predictions.id, id));
      const before = shownOfRow(row!);
      const polled = shownOfJson((await polls.get(id)).body);
      if (progressOf(polled) < progressOf(before)) stale.push(`${JSON.stringify(before)} then ${JSON.stringify(polled)}`);
      seen.add(`${polled.status}:${polled.logs.split('\n').length}`);
      if (polled.status !== 'processing') break;
    }
    await pollers.stop();
    expect(stale).toEqual([]);
    expect(pollers.failures).toEqual([]);
    expect(seen.size).toBeGreaterThanOrEqual(3); // several states were seen, not only the first and the last
  });

  it('should show a cancel to the next poll and answer If-None-Match with 304', { timeout: 60_000 }, async () => {
    const polls = client(t.replicateBase, t.key);
    const id = await polls.create(`${files.url}/jfk.wav`);
    for (let i = 0; i < 5; i += 1) await polls.get(id);
    expect((await polls.cancel(id)).status).toBe(200);
    const canceled = await polls.get(id);
    expect(canceled.body.status).toBe('canceled');
    const unchanged = await polls.get(id, { 'if-none-match': canceled.etag! });
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
  });
});
