import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

type ReadyBody = { status: string; checks: Record<string, string> };

const ready = async (t: TestService) => {
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

  describe('with the database gone (PostgreSQL refusing connections to this database)', () => {
    const admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
    afterAll(async () => {
      await admin.end();
    });

    it('should answer 503 naming the database while it is gone, and 200 once it is back, while /health stays 200', async () => {
      t = await startTestService('postgres', { WORKER_CONCURRENCY: '0' });
      const databaseName = (await t.service.ctx.database.executeSql('SELECT current_database() AS name')).rows[0] as { name: string };
      expect((await ready(t)).status).toBe(200);
      await admin.unsafe(`ALTER DATABASE ${databaseName.name} WITH ALLOW_CONNECTIONS false`);
      try {
        await admin`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ${databaseName.name} AND pid <> pg_backend_pid()`;
        const { status, body } = await ready(t);
        expect(status).toBe(503);
        expect(body.checks.database).toMatch(/^the database (does not answer: .+|did not answer within 2000 ms)$/);
        expect((await fetch(`${t.url}/health`)).status).toBe(200);
      } finally {
        await admin.unsafe(`ALTER DATABASE ${databaseName.name} WITH ALLOW_CONNECTIONS true`);
      }
      // The pool reconnects on its next query: within a few seconds, not at once.
      let back = 0;
      for (let tries = 0; tries < 50 && back !== 200; tries++) {
        back = (await ready(t)).status;
        if (back !== 200) await sleep(200);
      }
      expect(back).toBe(200);
    });
  });
});
