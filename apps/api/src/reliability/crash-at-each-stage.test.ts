import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, usageLedger } from '@transcribe/core';
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
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../test-support/start-webhook-receiver.ts';

const CLIP = join(AUDIO_DIR, 'librispeech-test-clean', '1089-134686-0001.wav');
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

/** Serves the clip at any path; the first request for a path under /stall/ sends 1000 bytes and hangs. */
async function startMediaServer(bytes: Buffer) {
  const stalled = new Set<string>();
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    res.writeHead(200, { 'content-length': bytes.length, 'content-type': 'audio/wav' });
    if (path.startsWith('/stall/') && !stalled.has(path)) {
      res.write(bytes.subarray(0, 1000));
      stalled.add(path);
      return; // never finishes: the process downloading it is killed
    }
    res.end(bytes);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const stallArrived = async (path: string) => {
    while (!stalled.has(path)) await sleep(20);
  };
  return {
    url,
    stallArrived,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

type Stage = 'download' | 'decode' | 'recognition' | 'finished';
const STAGES: Stage[] = ['download', 'decode', 'recognition', 'finished'];

/** A distinct link per stage (no cache hit between stages); the download stage's link stalls. */
function pathOf(stage: Stage): string {
  return stage === 'download' ? '/stall/download.wav' : `/serve/${stage}.wav`;
}

describe.each(['pglite', 'postgres'] as const)('SIGKILL at each stage of a prediction (%s)', (kind) => {
  let dataDir: string;
  let database: TestDatabase | null = null;
  let media: Awaited<ReturnType<typeof startMediaServer>>;
  let hooks: WebhookReceiver;
  let current: SpawnedService | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'crash-stages-'));
    if (kind === 'postgres') database = await createTestDatabase();
    media = await startMediaServer(await readFile(CLIP));
    hooks = await startWebhookReceiver();
  });

  afterAll(async () => {
    await current?.kill('SIGKILL');
    media?.close();
    await hooks?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Waits until the prediction is inside `stage` on the running service. */
  async function reach(stage: Stage, service: SpawnedService, key: string, id: string): Promise<void> {
    if (stage === 'download') return media.stallArrived(pathOf(stage));
    if (stage === 'decode') {
      await waitForPrediction(service.url, key, id, (p) => /downloaded \d+ bytes/.test(String(p.logs)));
      return;
    }
    if (stage === 'recognition') return waitForOutput(service, new RegExp(`\\[fake-engine\\] recognize ${id}`));
    await waitForPrediction(service.url, key, id, (p) => TERMINAL.has(String(p.status)));
  }

  it(
    'should end every prediction once, charge it at most once and deliver `completed` once after restarts',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const env = fakeEngineEnv(dataDir, database?.url ?? null, { FAKE_ENGINE_DELAY_MS: '2500', PRICE_PER_MINUTE: '1' });
      current = await spawnService(env, SPAWN_TIMEOUT_MS);
      const key = await createKeyFor(env);
      const ids: string[] = [];
      for (const stage of STAGES) {
        const id = await createLinkPrediction(current.url, key, {
          input: { audio: `${media.url}${pathOf(stage)}` },
          webhook: `${hooks.url}/hook/${stage}`,
          webhook_events_filter: ['completed'],
        });
        ids.push(id);
        await reach(stage, current, key, id);
        await current.kill('SIGKILL');
        current = await spawnService(env, SPAWN_TIMEOUT_MS);
        const done = await waitForPrediction(current.url, key, id, isSettled, 90_000);
        expect(done.status, `${stage}: ${String(done.error)}`).toBe('succeeded');
        expect(countLogLines(done.logs, 'succeeded'), stage).toBe(1);
        expect((done.output as { segments: { text: string }[] }).segments[0]?.text).toMatch(/fake engine transcript/);
        // The sweep that re-enqueues an ending a killed process left runs at start-up and every 60 s:
        // wait past two of its rounds, not exactly one (a loaded machine missed the boundary).
        await hooks.waitFor(`/hook/${stage}`, (got) => got.length >= 1, 150_000);
      }
      await sleep(3000); // room for a duplicate delivery or a second run to show up
      for (const stage of STAGES) {
        // One message: a process killed between sending `completed` and recording it sends it again
        // after the restart with the same webhook-id (docs/webhooks.md: receivers drop repeats by it),
        // so the messages are counted by webhook-id; every repeat must be the same message.
        const deliveries = hooks.on(`/hook/${stage}`);
        const messages = new Set(deliveries.map((delivery) => String(delivery.headers['webhook-id'])));
        expect([...messages], `completed messages after a kill at ${stage}`).toEqual([`msg_${ids[STAGES.indexOf(stage)]}_completed`]);
        expect(new Set(deliveries.map((delivery) => delivery.body)).size, `bodies of the ${stage} deliveries`).toBe(1);
        expect((JSON.parse(deliveries[0]!.body) as { status: string }).status).toBe('succeeded');
      }
      await current.kill('SIGTERM');
      current = null;
      const db = await openDatabase(database ? { databaseUrl: database.url } : { pgliteDir: join(dataDir, 'pglite') });
      try {
        for (const id of ids) {
          const rows = await db.db
            .select({ n: sql<number>`count(*)::int` })
            .from(usageLedger)
            .where(eq(usageLedger.predictionId, id));
          expect(rows[0]?.n, `ledger rows of ${id}`).toBe(1);
        }
      } finally {
        await db.close();
      }
    },
  );
});
