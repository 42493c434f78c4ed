import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { createPredictionInserter, openDatabase } from '@transcribe/core';
import { preparedStatementRuns } from '../test-support/prepared-statement-runs.ts';
import { TEST_POSTGRES_URL } from '../test-support/shared-paths.ts';
import { createLinkPrediction } from '../test-support/fake-engine-service.ts';
import { startTestService, type TestDatabaseKind, type TestService } from '../test-support/start-test-service.ts';

const BURST = 40;

/** A fresh prediction id (26 characters like the service's own). */
const newPredictionId = () => randomBytes(13).toString('hex');

interface JobRow {
  prediction_id: string;
  retry_limit: number;
  retry_backoff: boolean;
  expire_seconds: number;
  priority: number;
  created_on: string;
}

async function transcribeJobs(t: TestService): Promise<JobRow[]> {
  const { rows } = await t.service.ctx.database.executeSql(
    `SELECT data->>'predictionId' AS prediction_id, retry_limit, retry_backoff, extract(epoch FROM expire_in)::int AS expire_seconds,
            priority, created_on::text AS created_on
       FROM pgboss.job WHERE name = 'transcribe'`,
  );
  return rows as JobRow[];
}

/**
 * Creates that arrive together share transactions (group commit,
 * packages/core/src/resources/predictions/create-prediction-inserter.ts): every prediction still gets
 * exactly one job with the queue's settings, and a row the database refuses fails only its own create.
 */
describe.each<TestDatabaseKind>(['postgres', 'pglite'])('a burst of creates (%s)', (kind) => {
  let t: TestService;

  beforeAll(async () => {
    // No worker: the jobs stay queued as the creates left them.
    t = await startTestService(kind, {
      RECOGNITION_ENGINE: 'fake',
      ALLOW_FAKE_ENGINE: '1',
      WORKER_CONCURRENCY: '0',
      JOB_EXPIRE_SECONDS: '1234',
    });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should give each of 40 simultaneous creates its row and exactly one job, in fewer transactions than creates on PostgreSQL', async () => {
    const ids = await Promise.all(
      Array.from({ length: BURST }, (_, n) =>
        createLinkPrediction(t.url, t.key, { input: { audio: `http://127.0.0.1:9/burst-${n}.wav` } }),
      ),
    );
    expect(new Set(ids).size).toBe(BURST);
    const jobs = (await transcribeJobs(t)).filter((job) => ids.includes(job.prediction_id));
    expect(jobs.map((job) => job.prediction_id).sort()).toEqual([...ids].sort());
    for (const job of jobs) {
      expect(job).toMatchObject({ retry_limit: 2, retry_backoff: true, expire_seconds: 1234 });
    }
    // One key: the fair queue gives each of its jobs a later start tag, so a priority of its own (resources/queue/).
    expect(new Set(jobs.map((job) => job.priority)).size).toBe(BURST);
    // now() is the time of the transaction: rows written together share it. PGlite runs
    // each transaction in this thread before the next request is read, so its creates never wait.
    if (kind === 'postgres') expect(new Set(jobs.map((job) => job.created_on)).size).toBeLessThan(BURST);
    for (const id of ids) {
      const response = await fetch(`${t.url}/v1/replicate/v1/predictions/${id}`, { headers: { authorization: `Bearer ${t.key}` } });
      expect(((await response.json()) as { status: string }).status).toBe('processing');
    }
  });

  it('should store the input echo with its members in the order shown (a json column, written as text)', async () => {
    const input = { audio: 'http://127.0.0.1:9/order.wav', domain: 'meeting', speakers: 2, language: 'en' };
    const response = await fetch(`${t.url}/v1/replicate/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input }),
    });
    const created = (await response.json()) as { id: string; input: Record<string, unknown> };
    expect(response.status).toBe(201);
    // The echo's order (resources/predictions/describe-input.ts), which jsonb would have changed to audio, domain, language, speakers.
    expect(Object.keys(created.input)).toEqual(['audio', 'language', 'speakers', 'domain']);
    const { rows } = await t.service.ctx.database.executeSql(`SELECT input::text AS text FROM predictions WHERE id = $1`, [created.id]);
    expect(Object.keys(JSON.parse((rows[0] as { text: string }).text) as object)).toEqual(['audio', 'language', 'speakers', 'domain']);
  });

  it('should store a null of a column without a default as SQL NULL, not the JSON value null', async () => {
    const id = await createLinkPrediction(t.url, t.key, { input: { audio: 'http://127.0.0.1:9/nulls.wav' } }); // no webhook
    const { rows } = await t.service.ctx.database.executeSql(
      `SELECT webhook_events_filter IS NULL AS filter_null, webhook IS NULL AS webhook_null, output_transformers IS NULL AS transformers_null
         FROM predictions WHERE id = $1`,
      [id],
    );
    expect(rows).toEqual([{ filter_null: true, webhook_null: true, transformers_null: true }]);
  });

  it('should store a batch whose rows give different columns in one transaction, absent columns taking their defaults', async () => {
    const [keyRow] = (await t.service.ctx.database.executeSql(`SELECT id FROM api_keys LIMIT 1`)).rows as { id: string }[];
    const [plain, hooked] = [newPredictionId(), newPredictionId()];
    const values = (id: string) => ({
      id,
      apiKeyId: keyRow!.id,
      status: 'processing' as const,
      input: { audio: `http://127.0.0.1:9/${id}.wav` },
      params: { audio: `http://127.0.0.1:9/${id}.wav` } as never,
      source: { kind: 'link' as const, url: `http://127.0.0.1:9/${id}.wav` },
    });
    // Same event-loop turn: one batch (platform/db/group-commit.ts).
    const [a, b] = await Promise.all([
      t.service.ctx.insertPrediction({ values: values(plain) }),
      t.service.ctx.insertPrediction({
        values: { ...values(hooked), namespace: 'portal', webhook: 'https://example.com/hook' },
      }),
    ]);
    expect([a.namespace, a.webhook, b.namespace, b.webhook]).toEqual(['api', null, 'portal', 'https://example.com/hook']);
    expect(
      new Set((await transcribeJobs(t)).filter((job) => [plain, hooked].includes(job.prediction_id)).map((job) => job.created_on)).size,
    ).toBe(1);
  });

  it.runIf(kind === 'postgres')("should run a batch size's insert as one prepared statement, planned once and run again", async () => {
    // A pool of its own, used one statement at a time (preparedStatementRuns).
    const [{ name }] = (await t.service.ctx.database.executeSql('SELECT current_database() AS name')).rows as [{ name: string }];
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    try {
      const insert = createPredictionInserter(database, t.service.ctx.boss);
      const [keyRow] = (await database.executeSql(`SELECT id FROM api_keys LIMIT 1`)).rows as { id: string }[];
      for (let i = 0; i < 3; i += 1) {
        const id = newPredictionId();
        const row = await insert({
          values: {
            id,
            apiKeyId: keyRow!.id,
            status: 'processing',
            input: { n: i },
            params: { audio: 'x' } as never,
            source: { kind: 'link', url: 'x' },
          },
        });
        expect(row).toMatchObject({ id, input: { n: i }, namespace: 'api', logs: '' });
      }
      expect(await preparedStatementRuns(database, 'insert into "predictions"%')).toEqual([3]);
    } finally {
      await database.close();
    }
  });

  it('should fail only the insert the database refuses when it shares a transaction with others, and leave it no job', async () => {
    const [keyRow] = (await t.service.ctx.database.executeSql(`SELECT id FROM api_keys LIMIT 1`)).rows as { id: string }[];
    const taken = newPredictionId();
    const values = (id: string) => ({
      id,
      apiKeyId: keyRow!.id,
      namespace: 'api',
      status: 'processing' as const,
      input: { audio: `http://127.0.0.1:9/${id}.wav` },
      params: { audio: `http://127.0.0.1:9/${id}.wav` } as never,
      source: { kind: 'link' as const, url: `http://127.0.0.1:9/${id}.wav` },
    });
    await t.service.ctx.insertPrediction({ values: values(taken) });
    const fresh = Array.from({ length: 5 }, () => newPredictionId());
    const outcomes = await Promise.allSettled([
      t.service.ctx.insertPrediction({ values: values(newPredictionId()) }), // written alone, at once
      ...fresh.slice(0, 2).map((id) => t.service.ctx.insertPrediction({ values: values(id), expectedAudioSeconds: 30 })),
      t.service.ctx.insertPrediction({ values: values(taken), expectedAudioSeconds: 30 }), // the same id again: refused
      ...fresh.slice(2).map((id) => t.service.ctx.insertPrediction({ values: values(id), expectedAudioSeconds: 30 })),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'fulfilled',
    ]);
    const jobs = await transcribeJobs(t);
    expect(jobs.filter((job) => job.prediction_id === taken)).toHaveLength(1);
    for (const id of fresh) {
      const { rows } = await t.service.ctx.database.executeSql(`SELECT queue_priority, queue_cost FROM predictions WHERE id = $1`, [id]);
      expect(rows).toEqual([{ queue_priority: expect.any(Number), queue_cost: 30 }]);
      expect(jobs.filter((job) => job.prediction_id === id)).toMatchObject([
        { priority: (rows[0] as { queue_priority: number }).queue_priority },
      ]);
    }
  });
});
