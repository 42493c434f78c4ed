import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPredictionEvents, openDatabase, PREDICTION_CHANGES_CHANNEL, type Database } from '@transcribe/core';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { createPredictionBodyCache, type CachedAnswer } from './prediction-body-cache.ts';
import { watchPredictionChanges, type PredictionChangeWatch } from './watch-prediction-changes.ts';

const running = (progress: number): CachedAnswer => ({
  body: Buffer.from(`p${progress}`),
  etag: `"p${progress}"`,
  progress,
  settled: false,
});

/**
 * The two ways a prediction write reaches an API process's cached answers (docs/architecture.md,
 * "Where a poll's answer comes from"), on real PostgreSQL. The cache here keeps unfinished answers
 * for an hour, so only the invalidation can explain an answer that is gone.
 */
describe('watchPredictionChanges on PostgreSQL', () => {
  let database: TestDatabase;
  let api: Database;
  let worker: Database;
  let watch: PredictionChangeWatch;
  const events = createPredictionEvents();
  const cache = createPredictionBodyCache(1024 * 1024, 3_600_000);

  beforeAll(async () => {
    database = await createTestDatabase();
    api = await openDatabase({ databaseUrl: database.url });
    worker = await openDatabase({ databaseUrl: database.url });
    watch = await watchPredictionChanges({ database: api, predictionEvents: events }, cache);
  });

  afterAll(async () => {
    await watch?.stop();
    await worker?.close();
    await api?.close();
    await database?.drop();
  });

  it('should drop a prediction’s answers at once on a write in this process', async () => {
    expect(cache.set('k', 'p1', null, running(1), cache.beginRead())).toBe(true);
    expect(cache.set('k', 'p2', null, running(1), cache.beginRead())).toBe(true);
    await events.publish({ type: 'changed', predictionId: 'p1' });
    expect(cache.get('k', 'p1', null)).toBeUndefined();
    expect(cache.get('k', 'p2', null)).toBeDefined();
  });

  it('should drop a prediction’s answers when another process announces a write to it', { timeout: 60_000 }, async () => {
    expect(cache.set('k', 'p3', null, running(1), cache.beginRead())).toBe(true);
    await worker.executeSql('SELECT pg_notify($1, $2)', [PREDICTION_CHANGES_CHANNEL, 'p3']);
    const deadline = Date.now() + 30_000;
    while (cache.get('k', 'p3', null) !== undefined && Date.now() < deadline) await sleep(10);
    expect(cache.get('k', 'p3', null)).toBeUndefined();
    expect(cache.get('k', 'p2', null)).toBeDefined(); // only the announced prediction
  });
});
