import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIVEN_UP_ERROR, openDatabase } from '@transcribe/core';
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
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/start-webhook-receiver.ts';

/** Occurrences of `[fake-engine] recognize <id>` in a process's output. */
const runsOf = (service: SpawnedService, id: string) =>
  service
    .output()
    .split('\n')
    .filter((line) => line.trim() === `[fake-engine] recognize ${id}`).length;

/**
 * The transcribe job rows of a prediction, read from the stopped service's embedded database.
 * `tries_used`: pg-boss 10 counts a try when it next fetches a job that was started before
 * (plans.js fetchNextJob: `retry_count + 1` when `started_on` is set), so a job waiting in `retry`
 * has used `retry_count`, plus one if it was started.
 */
async function jobsOf(dataDir: string, predictionId: string): Promise<{ state: string; tries_used: number }[]> {
  const database = await openDatabase({ pgliteDir: join(dataDir, 'pglite') });
  try {
    const { rows } = await database.executeSql(
      `SELECT state::text AS state, retry_count + CASE WHEN started_on IS NULL THEN 0 ELSE 1 END AS tries_used FROM pgboss.job WHERE name = 'transcribe' AND data->>'predictionId' = $1`,
      [predictionId],
    );
    return rows as { state: string; tries_used: number }[];
  } finally {
    await database.close();
  }
}

/** Rows left in the lease table of the stopped service's embedded database. */
async function leaseCount(dataDir: string): Promise<number> {
  const database = await openDatabase({ pgliteDir: join(dataDir, 'pglite') });
  try {
    const { rows } = await database.executeSql('SELECT count(*)::int AS n FROM job_leases', []);
    return (rows[0] as { n: number }).n;
  } finally {
    await database.close();
  }
}

/**
 * Every prediction reaches a terminal state, whatever happens to the processes running it
 * (docs/reliability.md, "Every prediction ends"), and a stop hands back work it had not started.
 */
describe('every prediction ends, and a stop hands back unstarted work', () => {
  let files: FileServer;
  let hooks: WebhookReceiver;
  const dirs: string[] = [];
  let running: SpawnedService | null = null;
  const link = (n: string) => `${files.url}/1089-134686-0001.wav?${n}`;

  beforeAll(async () => {
    files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
    hooks = await startWebhookReceiver();
  });

  afterAll(async () => {
    await running?.kill('SIGKILL');
    await files?.close();
    await hooks?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(
    'should fail a prediction interrupted on every try, send its completed webhook and charge nothing',
    { timeout: 4 * MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'given-up-'));
      dirs.push(dataDir);
      const env = fakeEngineEnv(dataDir, null, { WORKER_CONCURRENCY: '1', FAKE_ENGINE_DELAY_MS: '600000' });
      running = await spawnService(env, SPAWN_TIMEOUT_MS);
      const key = await createKeyFor(env);
      const id = await createLinkPrediction(running.url, key, {
        input: { audio: link('given-up') },
        webhook: `${hooks.url}/given-up`,
        webhook_events_filter: ['completed'],
      });
      // Three tries (pg-boss retryLimit 2), each killed mid-recognition; the fourth start finds none left.
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        await waitForOutput(running, new RegExp(`recognize ${id}`), 60_000);
        await running.kill('SIGKILL');
        running = await spawnService(env, SPAWN_TIMEOUT_MS);
      }
      const ended = await waitForPrediction(running.url, key, id, isSettled, 60_000);
      expect(ended.status).toBe('failed');
      expect(ended.error).toBe(GIVEN_UP_ERROR);
      expect(runsOf(running, id)).toBe(0); // the fourth process never ran it again
      const delivered = await hooks.waitFor('/given-up', (got) => got.length > 0, 30_000);
      expect(JSON.parse(delivered[0]!.body)).toMatchObject({ id, status: 'failed', error: GIVEN_UP_ERROR });
      const account = (await (
        await fetch(`${running.url}/v1/replicate/v1/account`, { headers: { authorization: `Bearer ${key}` } })
      ).json()) as { usage: { predictions_charged?: number; audio_seconds_charged: number } };
      expect(account.usage.audio_seconds_charged).toBe(0);
      await running.kill('SIGTERM');
      running = null;
    },
  );

  it(
    'should hand back a job that only waited for a recognition slot without spending a try, and release every lease',
    { timeout: 2 * MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'stop-waiting-'));
      dirs.push(dataDir);
      // LOG_LEVEL info: the hand-back is a worker event of the structured log, read below.
      const env = fakeEngineEnv(dataDir, null, {
        WORKER_CONCURRENCY: '2',
        RECOGNITION_CONCURRENCY: '1',
        FAKE_ENGINE_DELAY_MS: '600000',
        SHUTDOWN_TIMEOUT_MS: '1500',
        LOG_LEVEL: 'info',
      });
      running = await spawnService(env, SPAWN_TIMEOUT_MS);
      const key = await createKeyFor(env);
      const a = await createLinkPrediction(running.url, key, { input: { audio: link('slot-a') } });
      await waitForOutput(running, new RegExp(`recognize ${a}`), 60_000);
      const b = await createLinkPrediction(running.url, key, { input: { audio: link('slot-b') } });
      await waitForPrediction(running.url, key, b, (p) => String(p.logs).includes('decoded'), 60_000); // at the slot, behind a
      const first = running;
      expect(await first.kill('SIGTERM')).toBe(0);
      running = null;
      const handBack = first
        .output()
        .split('\n')
        .find((line) => line.includes(`prediction ${b} was waiting for a recognition slot`));
      expect(JSON.parse(handBack ?? '{}')).toMatchObject({
        component: 'worker',
        prediction: b,
        msg: `stopping: prediction ${b} was waiting for a recognition slot; its job is back in the queue, no try spent`,
      });
      expect(runsOf(first, b)).toBe(0);
      expect(await jobsOf(dataDir, b)).toEqual([{ state: 'retry', tries_used: 0 }]); // no try spent
      expect(await jobsOf(dataDir, a)).toEqual([{ state: 'retry', tries_used: 1 }]); // aborted at the deadline: one try
      expect(await leaseCount(dataDir)).toBe(0);
      running = await spawnService({ ...env, FAKE_ENGINE_DELAY_MS: '100' }, SPAWN_TIMEOUT_MS);
      for (const id of [a, b]) expect((await waitForPrediction(running.url, key, id, isSettled, 60_000)).status).toBe('succeeded');
      expect((await getPrediction(running.url, key, b)).status).toBe('succeeded');
      await running.kill('SIGTERM');
      running = null;
    },
  );
});
