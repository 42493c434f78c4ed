import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, openDatabase } from '@transcribe/core';
import { UNFINISHED_ANSWER_TTL_MS } from '../http/prediction-body-cache.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  createLinkPrediction,
  fakeEngineEnv,
  getPrediction,
  isSettled,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
  waitForPrediction,
} from '../test-support/fake-engine-service.ts';
import { logLines } from '../test-support/read-log-lines.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/**
 * A worker's writes never wait for the API processes (docs/architecture.md, "Where a poll's answer
 * comes from"): an API process that hangs (SIGSTOP here; a long GC pause or a frozen container
 * alike) slows no worker. Two API processes (A and B, spawned as `npm start` would, no worker) and
 * a worker in this process share one PostgreSQL database; B holds the prediction's `processing`
 * answer in memory when it is stopped, and the worker then runs the whole prediction.
 */
describe('an API process that hangs does not hold up the workers', () => {
  let database: TestDatabase;
  let files: FileServer;
  const dirs: string[] = [];
  const apis: SpawnedService[] = [];
  let worker: TestService | null = null;
  let workerLog = '';
  let key: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    files = await serveFiles(AUDIO_DIR);
    for (let i = 0; i < 2; i += 1) {
      const dir = await mkdtemp(join(tmpdir(), 'stopped-api-'));
      dirs.push(dir);
      apis.push(await spawnService(fakeEngineEnv(dir, database.url, { WORKER_CONCURRENCY: '0' }), SPAWN_TIMEOUT_MS));
    }
    const admin = await openDatabase({ databaseUrl: database.url });
    key = (await createApiKey(admin.db, 'stopped-api')).secret;
    await admin.close();
  }, 3 * SPAWN_TIMEOUT_MS);

  afterAll(async () => {
    apis[1]?.child.kill('SIGCONT'); // a stopped process does not act on SIGKILL's exit until it runs
    await worker?.stop();
    for (const api of apis) await api.kill('SIGKILL');
    await files?.close();
    await database?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(
    'should finish a prediction with one of two API processes stopped, no write waiting for it, and the stopped one answer the end once resumed',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const [a, b] = apis as [SpawnedService, SpawnedService];
      // Created through A before any worker runs: both API processes hold its `processing` answer.
      const id = await createLinkPrediction(a.url, key, { input: { audio: `${files.url}/jfk.wav` } });
      for (const api of apis) for (let i = 0; i < 2; i += 1) expect((await getPrediction(api.url, key, id)).status).toBe('processing');
      b.child.kill('SIGSTOP');

      // The worker starts only now, so every write of the prediction is made while B is stopped.
      const destination = new Writable({
        write(chunk: Buffer, _encoding, done) {
          workerLog += chunk.toString('utf8');
          done();
        },
      });
      const workerEnv = {
        DATABASE_URL: database.url,
        NODE_ENV: 'test',
        RECOGNITION_ENGINE: 'fake',
        WORKER_CONCURRENCY: '1',
        LOG_LEVEL: 'warn',
      };
      worker = await startTestService('postgres', workerEnv, { http: false, logDestination: destination });
      const done = await waitForPrediction(a.url, key, id, isSettled, MULTI_PROCESS_TEST_TIMEOUT_MS / 2);
      expect(done.status).toBe('succeeded');
      // No write waited for B (before, each one waited up to 2 s for B's acknowledgement and said so).
      expect(logLines(workerLog).map((line) => `${String(line.component)}: ${String(line.msg)}`)).toEqual([]);

      // B resumes: whatever it read of the notifications it slept through, it serves no unfinished
      // answer older than UNFINISHED_ANSWER_TTL_MS, so its very next poll shows the end.
      await sleep(UNFINISHED_ANSWER_TTL_MS);
      b.child.kill('SIGCONT');
      const resumed = await getPrediction(b.url, key, id);
      expect([resumed.status, resumed.logs]).toEqual([done.status, done.logs]);
    },
  );
});
