import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  createKeyFor,
  fakeEngineEnv,
  isSettled,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/**
 * Spellings of this machine's own addresses. Only loopback and "this host" forms are used: traffic
 * to other private ranges (10/8, 172.16/12, 192.168/16, 169.254/16) must never leave this machine
 * even if a check failed, so those ranges are covered without any traffic by check-public-address.test.ts.
 */
const HOSTS = [
  '127.0.0.1',
  '127.1',
  '127.0.0.2',
  '2130706433',
  '0x7f000001',
  '0177.0.0.1',
  '0.0.0.0',
  '0',
  'localhost',
  'LOCALHOST.',
  '[::1]',
  '[0:0:0:0:0:0:0:1]',
  '[::ffff:127.0.0.1]',
  '[::ffff:7f00:1]',
  '[::]',
];

describe('SSRF: links and webhook URLs to local addresses with ALLOW_PRIVATE_NETWORK=0', () => {
  let dataDir: string;
  let database: TestDatabase;
  let listener: Server;
  let port = 0;
  let connections = 0;
  let service: SpawnedService | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'ssrf-'));
    database = await createTestDatabase();
    listener = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((done) => listener.listen(0, '::', done)); // IPv6 and IPv4, every local address
    port = (listener.address() as { port: number }).port;
  });

  afterAll(async () => {
    await service?.kill('SIGKILL');
    listener?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'should fail every link with a plain error, refuse every webhook, and let no request reach the listener',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const env = fakeEngineEnv(dataDir, database.url, { ALLOW_PRIVATE_NETWORK: '0', WORKER_CONCURRENCY: '4' });
      service = await spawnService(env, SPAWN_TIMEOUT_MS);
      const key = await createKeyFor(env);
      const created: [string, string][] = [];
      for (const host of HOSTS) {
        const response = await fetch(`${service.url}/v1/replicate/v1/predictions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            version: 'service/transcribe',
            input: { audio: `http://${host}:${port}/a.wav` },
            webhook: `https://${host}:${port}/hook`,
            webhook_events_filter: ['completed'],
          }),
        });
        const body = (await response.json()) as { id?: string; detail?: string };
        if (response.status === 201) created.push([host, body.id!]);
        else expect(response.status, `${host}: ${body.detail}`).toBe(422);
      }
      expect(created.length).toBeGreaterThan(0);
      for (const [host, id] of created) {
        const done = await waitForPrediction(service.url, key, id, isSettled, 60_000);
        expect(done.status, host).toBe('failed');
        // `localhost.` resolves only where a DNS resolver answers for it; unresolved, it fails as unknown.
        const refusal = host.endsWith('.')
          ? /private or local network address|could not be found/
          : /private or local network address .*only public internet addresses can be fetched/;
        expect(String(done.error), host).toMatch(refusal);
        expect(String(done.error)).not.toMatch(/\/work\/|node_modules|\bat \w/);
      }
      const sql = postgres(database.url, { max: 1, onnotice: () => {} });
      try {
        const deadline = Date.now() + 30_000;
        let attempts: { prediction_id: string; error: string | null }[] = [];
        while (Date.now() < deadline) {
          attempts = await sql`SELECT prediction_id, error FROM webhook_attempts WHERE event = 'completed'`;
          if (new Set(attempts.map((row) => row.prediction_id)).size >= created.length) break;
          await sleep(200);
        }
        for (const [host, id] of created) {
          const mine = attempts.filter((row) => row.prediction_id === id);
          expect(mine.length, `webhook attempts for ${host}`).toBeGreaterThan(0);
          for (const row of mine)
            expect(row.error, host).toMatch(
              host.endsWith('.')
                ? /^(Refused: .*private or local network address|DNS lookup)/
                : /^Refused: .*private or local network address/,
            );
        }
      } finally {
        await sql.end();
      }
      expect(connections).toBe(0);
    },
  );

  it('should refuse links of other schemes at creation with 422', { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS }, async () => {
    const key = await createKeyFor(fakeEngineEnv(dataDir, database.url));
    for (const link of ['file:///etc/passwd', 'gopher://127.0.0.1:70/', 'ftp://127.0.0.1/a.wav']) {
      const response = await fetch(`${service!.url}/v1/replicate/v1/models/service/transcribe/predictions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: { audio: link } }),
      });
      const body = (await response.json()) as { id?: string; detail?: string };
      if (response.status === 201) {
        const done = await waitForPrediction(service!.url, key, body.id!, isSettled, 60_000);
        expect(done.status, link).toBe('failed');
      } else {
        expect(response.status, link).toBe(422);
        expect(body.detail).toMatch(/audio/);
      }
    }
    expect(connections).toBe(0);
  });
});
