import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GIVEN_UP_ERROR } from '@transcribe/core';
import { createTestDatabase, type TestDatabase } from '../test-support/create-test-database.ts';
import {
  createKeyFor,
  createLinkPrediction,
  fakeEngineEnv,
  getPrediction,
  isSettled,
  waitForOutput,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { seedPgliteDataDir } from '../test-support/pglite-template.ts';
import { freePort, runScript, spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/** More crashes than this and the supervisor stops restarting: the prediction is crash-looping. */
const MAX_CRASHES = 6;

/**
 * A process supervisor like systemd's `Restart=on-failure` (deploy/transcribe.service) or compose's
 * `restart: unless-stopped`: runs `script`, and starts it again whenever it exits with a non-zero
 * code, up to MAX_CRASHES times. The outputs of every start are kept.
 */
function supervise(script: string, env: Record<string, string>) {
  const outputs: string[] = [];
  const exits: (number | null)[] = [];
  let current: ChildProcess;
  let stopped = false;
  const start = () => {
    const child = runScript(script, [], env);
    const index = outputs.push('') - 1;
    child.stdout?.on('data', (chunk) => (outputs[index] += chunk));
    child.stderr?.on('data', (chunk) => (outputs[index] += chunk));
    child.once('exit', (code) => {
      exits.push(code);
      if (!stopped && code !== 0 && exits.length <= MAX_CRASHES) start();
    });
    current = child;
  };
  start();
  return {
    /** Exit codes of the starts that ended, in order. */
    exits,
    /** Everything every start printed. */
    output: () => outputs.join('\n'),
    /** The start running now (or the last one). */
    current: () => current,
    /** Stops restarting and ends the running start. */
    stop: async () => {
      stopped = true;
      if (current.exitCode !== null || current.signalCode !== null) return;
      await new Promise((done) => {
        current.once('exit', done);
        current.kill('SIGKILL');
      });
    },
  };
}

/** Occurrences of `[fake-engine] recognize <id>`: the runs of that prediction. */
const runsOf = (output: string, id: string) => output.split('\n').filter((line) => line.trim() === `[fake-engine] recognize ${id}`).length;

/** Polls `GET …/predictions/{id}` until it is settled, through restarts (a refused connection is a restart). */
async function waitThroughCrashes(url: string, key: string, id: string, supervisor: ReturnType<typeof supervise>) {
  const deadline = Date.now() + MULTI_PROCESS_TEST_TIMEOUT_MS - 60_000;
  for (;;) {
    const prediction = await getPrediction(url, key, id).catch(() => null);
    if (prediction && isSettled(prediction)) return prediction;
    if (supervisor.exits.length > MAX_CRASHES)
      throw new Error(`crash loop: ${supervisor.exits.length} crashes, exit codes ${supervisor.exits.join(', ')}`);
    if (Date.now() > deadline) throw new Error(`prediction ${id} never ended; exit codes so far ${supervisor.exits.join(', ')}`);
    await sleep(200);
  }
}

/**
 * A prediction whose run crashes its process (an uncaught exception, process.exit(1)) every time, in a
 * process that a supervisor restarts every time: a crash loop unless the tries are bounded
 * (docs/reliability.md, "Every prediction ends"; pg-boss `retryLimit` 2: 3 tries).
 */
describe('a prediction that crashes its process on every try', () => {
  let files: FileServer;
  const dirs: string[] = [];
  let supervisor: ReturnType<typeof supervise> | null = null;
  let api: SpawnedService | null = null;
  let database: TestDatabase | null = null;

  beforeAll(async () => {
    files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
  });

  afterEach(async () => {
    await supervisor?.stop();
    supervisor = null;
    await api?.kill('SIGKILL');
    api = null;
    await database?.drop();
    database = null;
  });

  afterAll(async () => {
    await files?.close();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it(
    'npm start (PGlite), an uncaught exception: 3 runs, then failed `interrupted` at the next start, which stays up',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'crash-loop-pglite-'));
      dirs.push(dataDir);
      const port = String(await freePort());
      const url = `http://127.0.0.1:${port}`;
      const env = fakeEngineEnv(dataDir, null, { PORT: port, HOST: '127.0.0.1', WORKER_CONCURRENCY: '1', FAKE_ENGINE_CRASH: 'throw' });
      await seedPgliteDataDir(dataDir); // a migrated database, as spawnService gives
      supervisor = supervise('apps/api/src/main.ts', env);
      const deadline = Date.now() + SPAWN_TIMEOUT_MS;
      while (
        !(await fetch(`${url}/health`).then(
          (r) => r.ok,
          () => false,
        ))
      ) {
        if (Date.now() > deadline) throw new Error(`service did not start:\n${supervisor.output()}`);
        await sleep(200);
      }
      const key = await createKeyFor(env);
      const id = await createLinkPrediction(url, key, { input: { audio: `${files.url}/1089-134686-0001.wav?crash` } });
      const ended = await waitThroughCrashes(url, key, id, supervisor);
      expect(ended).toMatchObject({ status: 'failed', error: GIVEN_UP_ERROR, error_code: 'interrupted' });
      expect(supervisor.exits).toEqual([1, 1, 1]); // three crashes, each the uncaught exception's exit code
      expect(supervisor.output().match(/^Error: fake engine: crash requested by FAKE_ENGINE_CRASH$/gm)).toHaveLength(3); // Node's report of an uncaught exception
      expect(runsOf(supervisor.output(), id)).toBe(3);
      // The fourth start ended the prediction without running it, and serves on.
      await sleep(3000);
      expect(supervisor.exits).toHaveLength(3);
      expect(supervisor.current().exitCode).toBeNull();
      expect(runsOf(supervisor.output(), id)).toBe(3);
      expect((await fetch(`${url}/health`)).ok).toBe(true);
    },
  );

  it(
    'npm run worker on PostgreSQL, process.exit(1): 3 runs, then failed `interrupted` by the restarted worker, which stays up',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'crash-loop-pg-'));
      dirs.push(dataDir);
      database = await createTestDatabase();
      api = await spawnService(fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '0' }), SPAWN_TIMEOUT_MS);
      const key = await createKeyFor(fakeEngineEnv(dataDir, database.url));
      supervisor = supervise(
        'apps/api/src/worker-main.ts',
        fakeEngineEnv(dataDir, database.url, { WORKER_CONCURRENCY: '1', FAKE_ENGINE_CRASH: 'exit', LOG_LEVEL: 'info' }),
      );
      await waitForOutput({ output: () => supervisor!.output() }, /"msg":"taking jobs/, SPAWN_TIMEOUT_MS);
      const id = await createLinkPrediction(api.url, key, { input: { audio: `${files.url}/1089-134686-0001.wav?crash` } });
      const ended = await waitThroughCrashes(api.url, key, id, supervisor);
      expect(ended).toMatchObject({ status: 'failed', error: GIVEN_UP_ERROR, error_code: 'interrupted' });
      expect(supervisor.exits).toEqual([1, 1, 1]);
      expect(runsOf(supervisor.output(), id)).toBe(3);
      // The fourth worker reclaimed the third try's lease, gave the prediction up, and takes jobs on.
      await sleep(3000);
      expect(supervisor.exits).toHaveLength(3);
      expect(supervisor.current().exitCode).toBeNull();
      expect(runsOf(supervisor.output(), id)).toBe(3);
    },
  );
});
