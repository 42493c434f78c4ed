import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../test-support/shared-paths.ts';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

type ReadyBody = { status: string; checks: Record<string, string> };

const ready = async (t: { url: string }) => {
  const answer = await fetch(`${t.url}/ready`);
  return { status: answer.status, body: (await answer.json()) as ReadyBody };
};

/** `/ready` (readiness) against `/health` (liveness), with each reason a service is not ready. */
describe('GET /ready', () => {
  let t: TestService | null = null;

  afterEach(async () => {
    await t?.stop();
    t = null;
  });

  it('should answer 200 with every check ok on a started service, and /health stays liveness', async () => {
    t = await startTestService('pglite', { WORKER_CONCURRENCY: '0' });
    expect(await ready(t)).toEqual({
      status: 200,
      body: { status: 'ready', checks: { database: 'ok', queue: 'ok', engine: 'ok', disk: 'ok' } },
    });
    expect((await fetch(`${t.url}/health`)).status).toBe(200);
  });

  it('should answer 503 naming the disk when DATA_DIR has less free space than MIN_FREE_DISK_BYTES', async () => {
    t = await startTestService('pglite', { WORKER_CONCURRENCY: '0', MIN_FREE_DISK_BYTES: String(2 ** 52) });
    const { status, body } = await ready(t);
    expect(status).toBe(503);
    expect(body.status).toBe('not ready');
    expect(body.checks.database).toBe('ok');
    expect(body.checks.disk).toMatch(/^only [\d.]+ GiB free in DATA_DIR \(.+\); at least \d+\.\d GiB are needed \(MIN_FREE_DISK_BYTES\)$/);
  });

  /**
   * The service runs as a child process here, as `npm start` runs it: with the database refusing
   * connections, a new pool connection's type query can fail inside postgres.js where nothing awaits
   * it (porsager/postgres#1192, open in 3.4.9), and only an entry point's handler
   * (log-stray-rejections.ts) keeps that from ending the process. In this test process it would
   * surface as an unhandled rejection of the test run instead.
   */
  describe('with the database gone (PostgreSQL refusing connections to this database)', () => {
    const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
    let database: TestDatabase | null = null;
    let child: SpawnedService | null = null;
    let dataDir = '';
    afterAll(async () => {
      await child?.kill('SIGKILL');
      await database?.drop();
      await admin.end();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('should answer 503 naming the database while it is gone, and 200 once it is back, while /health stays 200 and the process stays up', async () => {
      database = await createTestDatabase();
      dataDir = await mkdtemp(join(tmpdir(), 'readiness-'));
      child = await spawnService({ DATA_DIR: dataDir, DATABASE_URL: database.url, WORKER_CONCURRENCY: '0', LOG_LEVEL: 'info' });
      const name = new URL(database.url).pathname.slice(1);
      expect((await ready(child)).status).toBe(200);
      await admin.unsafe(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      try {
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`;
        const { status, body } = await ready(child);
        expect(status).toBe(503);
        expect(body.checks.database).toMatch(/^the database (does not answer: .+|did not answer within 2000 ms)$/);
        expect((await fetch(`${child.url}/health`)).status).toBe(200);
      } finally {
        await admin.unsafe(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
      }
      // The pool reconnects on its next query: within a few seconds, not at once.
      let back = 0;
      for (let tries = 0; tries < 50 && back !== 200; tries++) {
        back = (await ready(child)).status;
        if (back !== 200) await sleep(200);
      }
      expect(back, child.output()).toBe(200);
      expect(child.child.exitCode, child.output()).toBeNull();
    });
  });
});
