import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './test-support/create-test-database.ts';
import { pollPrediction } from './test-support/poll-prediction.ts';
import { AUDIO_DIR } from './test-support/shared-paths.ts';
import { runScriptToEnd, spawnService } from './test-support/spawn-service.ts';

/** Serves jfk.wav; the first request stalls after a few bytes until the test lets it go. */
async function stallingServer(bytes: Buffer) {
  let requests = 0;
  let firstArrived: () => void = () => {};
  const arrived = new Promise<void>((done) => (firstArrived = done));
  const server: Server = createServer((_req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-length': bytes.length, 'content-type': 'audio/wav' });
    if (requests === 1) {
      res.write(bytes.subarray(0, 1000));
      firstArrived();
      return; // never finishes: the process handling it is killed
    }
    res.end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/jfk.wav`;
  return {
    url,
    arrived,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

describe.each(['pglite', 'postgres'] as const)('a service killed while a job runs (%s)', (kind) => {
  let dataDir: string;
  let database: TestDatabase | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'restart-'));
    if (kind === 'postgres') database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should run the job again after a restart and lose nothing', async () => {
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ALLOW_PRIVATE_NETWORK: '1',
      ...(database ? { DATABASE_URL: database.url, JOB_HEARTBEAT_MS: '500', JOB_LEASE_STALE_MS: '3000' } : {}),
    };
    const media = await stallingServer(await readFile(join(AUDIO_DIR, 'jfk.wav')));
    const first = await spawnService(env);
    const key = (await runScriptToEnd('apps/api/src/cli/apikey.ts', ['create', '--label', 'restart'], env)).stdout
      .trim()
      .split('\n')
      .at(-1)!;
    const created = await fetch(`${first.url}/v1/replicate/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: media.url } }),
    });
    const { id } = (await created.json()) as { id: string };
    await media.arrived;
    await first.kill('SIGKILL');
    const second = await spawnService({ ...env, PORT: new URL(first.url).port });
    try {
      const done = await pollPrediction(`${second.url}/v1/replicate`, key, id, 90_000);
      expect(done.status).toBe('succeeded');
      // PGlite requeues at start-up; with PostgreSQL the new worker reclaims the dead worker's lease.
      expect(media.requests()).toBe(2);
      expect((done.output as { segments: unknown[] }).segments.length).toBeGreaterThan(0);
      await sleep(200);
    } finally {
      await second.kill();
      media.close();
    }
  });
});
