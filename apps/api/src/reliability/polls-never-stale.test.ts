import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PREDICTION_CHANGES_CHANNEL, predictions } from '@transcribe/core';
import { UNFINISHED_ANSWER_TTL_MS } from '../http/prediction-body-cache.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** The pollers below send thousands of GETs a minute with one key. */
const UNLIMITED_READS = { RATE_LIMIT_READS_PER_MINUTE: '0' };

/** A timer may fire up to a millisecond before its delay by a finer clock (libuv counts whole ms from the loop's cached time). */
const TIMER_SLACK_MS = 5;

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
 * predictions are answered from memory. With the API and the worker in separate processes, a poll
 * sent more than UNFINISHED_ANSWER_TTL_MS after a write committed shows that write or a later one,
 * whatever became of its notification (usually it drops the answer within milliseconds; nothing
 * waits for it), and no poll to one API process shows an older state than the previous one.
 */
describe('polls lag a write of another process by at most UNFINISHED_ANSWER_TTL_MS: API and worker in separate processes on PostgreSQL', () => {
  let database: TestDatabase;
  let worker: TestService;
  let api: SpawnedService;
  let apiDir: string;
  let files: FileServer;
  let side: postgres.Sql;
  /** The prediction whose changes are checked as they are announced, and the checks under way. */
  let target: string | null = null;
  const checks: Promise<{ shown: Shown; polled: Shown }>[] = [];
  /** What the row holds now, read directly (no cache). */
  const rowNow = async (id: string) => {
    const [row] = await worker.service.ctx.database.db.select().from(predictions).where(eq(predictions.id, id));
    return shownOfRow(row!);
  };

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
    const polls = client(`${api.url}/v1/replicate`, worker.key);
    // Each announced write of the target: the row read once the notification is here (so after the
    // commit) holds it; a poll sent the bound after that read must show at least that row.
    await side.listen(PREDICTION_CHANGES_CHANNEL, (id) => {
      if (id !== target) return;
      checks.push(
        (async () => {
          const shown = await rowNow(id);
          await sleep(UNFINISHED_ANSWER_TTL_MS + TIMER_SLACK_MS);
          return { shown, polled: shownOfJson((await polls.get(id)).body) };
        })(),
      );
    });
  }, 120_000);

  afterAll(async () => {
    await side?.end();
    await api?.kill();
    await worker?.stop();
    await files?.close();
    await database?.drop();
    if (apiDir) await rm(apiDir, { recursive: true, force: true });
  });

  it(
    'should show every change (started, each log line, its end) to a poll sent UNFINISHED_ANSWER_TTL_MS after it, and never go back',
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
        const checked = await Promise.all(checks);
        await pollers.stop();
        target = null;
        expect(done.status).toBe(end);
        expect(pollers.failures).toEqual([]);
        // Started, log lines, the end: each checked the bound after it was announced.
        expect(checked.length).toBeGreaterThanOrEqual(end === 'succeeded' ? 4 : 2);
        const behind = checked.filter((check) => progressOf(check.polled) < progressOf(check.shown));
        expect(behind).toEqual([]);
        expect(checked.at(-1)!.polled.status).toBe(end);
        expect(pollers.polls).toBeGreaterThan(checked.length);
      }
    },
  );

  it('should show a write that announced nothing to a poll sent UNFINISHED_ANSWER_TTL_MS after it', { timeout: 60_000 }, async () => {
    // A running prediction no worker touches: a copy of a finished one, set back to processing, with no job.
    const polls = client(`${api.url}/v1/replicate`, worker.key);
    const finished = await polls.create(`${files.url}/jfk.wav`);
    await pollPrediction(`${api.url}/v1/replicate`, worker.key, finished);
    const id = `${finished}x`;
    await side.unsafe(
      `INSERT INTO predictions (id, api_key_id, namespace, status, input, params, source)
       SELECT $1, api_key_id, namespace, 'processing', input, params, source FROM predictions WHERE id = $2`,
      [id, finished],
    );
    const pollers = startPollers(polls, id, 2); // keep its answer in memory
    while (pollers.polls < 5) await sleep(10);
    // A writer that forgot to announce (none does today): no notification reaches the API.
    await side.unsafe(`UPDATE predictions SET logs = logs || 'a line nobody announced\n' WHERE id = $1`, [id]);
    const shown = await rowNow(id);
    await sleep(UNFINISHED_ANSWER_TTL_MS + TIMER_SLACK_MS);
    const polled = shownOfJson((await polls.get(id)).body);
    await pollers.stop();
    // At least that write: the service itself may append to a waiting prediction's logs meanwhile
    // (the queue's `Waiting: next in line, …` line), so later lines may follow it.
    expect(polled.logs.startsWith(shown.logs), `polled logs:\n${polled.logs}`).toBe(true);
    expect({ ...polled, logs: shown.logs }).toEqual(shown);
    expect(pollers.failures).toEqual([]);
  });

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
