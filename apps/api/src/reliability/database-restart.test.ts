import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  countLogLines,
  createKeyFor,
  createLinkPrediction,
  fakeEngineEnv,
  isSettled,
  waitForOutput,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR, TEST_POSTGRES_URL } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/**
 * The PostgreSQL server is shared with other test files, so it is never restarted: an outage of
 * this test's database alone is simulated by refusing new connections to it and terminating every
 * backend connected to it, for `downMs`, then allowing connections again.
 */
async function takeDatabaseDown(admin: postgres.Sql, name: string, downMs: number): Promise<number> {
  await admin.unsafe(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
  let terminated = 0;
  try {
    const until = Date.now() + downMs;
    while (Date.now() < until) {
      const rows =
        await admin`SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE datname = ${name} AND pid <> pg_backend_pid()`;
      terminated += rows.filter((row) => row.ok).length;
      await sleep(250);
    }
  } finally {
    await admin.unsafe(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS true`);
  }
  return terminated;
}

describe('the database going away during processing (PostgreSQL)', () => {
  let dataDir: string;
  let database: TestDatabase;
  let admin: postgres.Sql;
  let files: FileServer;
  let service: SpawnedService | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'db-restart-'));
    database = await createTestDatabase();
    admin = postgres(TEST_POSTGRES_URL, { max: 1, onnotice: () => {} });
    files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
  });

  afterAll(async () => {
    await service?.kill('SIGKILL');
    await files?.close();
    await admin?.end();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'should survive a 4 s outage: every prediction still ends once, charged at most once',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      // Leases outlive the outage (as the defaults do: 45 s), so a live worker's run is not taken from it.
      // LOG_LEVEL warn: reclaims and stray rejections are logged, and shown when a prediction fails.
      const env = fakeEngineEnv(dataDir, database.url, {
        WORKER_CONCURRENCY: '2',
        FAKE_ENGINE_DELAY_MS: '1500',
        PRICE_PER_MINUTE: '1',
        JOB_LEASE_STALE_MS: '10000',
        LOG_LEVEL: 'warn',
      });
      service = await spawnService(env, SPAWN_TIMEOUT_MS);
      const key = await createKeyFor(env);
      const ids: string[] = [];
      for (let n = 0; n < 6; n++)
        ids.push(await createLinkPrediction(service.url, key, { input: { audio: `${files.url}/1089-134686-0001.wav?db=${n}` } }));
      await waitForOutput(service, /\[fake-engine\] recognize/);
      const name = new URL(database.url).pathname.slice(1);
      const terminated = await takeDatabaseDown(admin, name, 4000);
      console.log(`terminated ${terminated} backend connections of ${name}`);
      expect(terminated).toBeGreaterThan(0);
      await sleep(500);
      expect(service.child.exitCode, `the service died:\n${service.output().slice(-2000)}`).toBeNull();
      for (const id of ids) {
        const done = await waitForPrediction(service.url, key, id, isSettled, 180_000);
        const reclaimed = service
          .output()
          .split('\n')
          .filter((line) => /reclaimed|left to its retry/.test(line));
        expect(done.status, `${id}: ${String(done.error)}\n${reclaimed.join('\n')}`).toBe('succeeded');
        expect(countLogLines(done.logs, 'succeeded')).toBe(1);
      }
      const later = await createLinkPrediction(service.url, key, { input: { audio: `${files.url}/1089-134686-0001.wav?db=after` } });
      expect((await waitForPrediction(service.url, key, later, isSettled, 60_000)).status).toBe('succeeded');
      expect(service.child.exitCode).toBeNull();
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        const charges = await sql<
          { prediction_id: string; n: number }[]
        >`SELECT prediction_id, count(*)::int AS n FROM usage_ledger GROUP BY prediction_id`;
        expect(charges).toHaveLength(ids.length + 1);
        expect(charges.every((row) => row.n === 1)).toBe(true);
      } finally {
        await sql.end();
      }
    },
  );
});
