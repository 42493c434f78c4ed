import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countLogLines,
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
import { logLines } from '../test-support/read-log-lines.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

/** pino's level numbers: 40 warn, 50 error, 60 fatal. */
const ERROR_LEVEL = 50;

/**
 * The log of a process stopped by SIGTERM: nothing at error level (a stop is expected), and its last
 * line is the service's `stopped (SIGTERM) after … s`, with the signal as a word and exit code 0.
 */
function expectStoppedLog(service: SpawnedService): void {
  const lines = logLines(service.output());
  expect(lines.filter((line) => Number(line.level) >= ERROR_LEVEL)).toEqual([]);
  const last = lines.at(-1);
  expect(last).toMatchObject({ component: 'service', signal: 'SIGTERM', exit_code: 0 });
  expect(last?.msg).toMatch(/^stopped \(SIGTERM\) after \d+(\.\d+)? s$/);
}

const runsOf = (service: SpawnedService, id: string) =>
  service
    .output()
    .split('\n')
    .filter((line) => line.trim() === `[fake-engine] recognize ${id}`).length;

describe('graceful shutdown on SIGTERM', () => {
  let dataDir: string;
  let files: FileServer;
  let running: SpawnedService | null = null;
  const link = (n: string) => `${files.url}/1089-134686-0001.wav?${n}`;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'sigterm-'));
    files = await serveFiles(join(AUDIO_DIR, 'librispeech-test-clean'));
  });

  afterAll(async () => {
    await running?.kill('SIGKILL');
    await files?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'should finish the running job, take no new one and stop taking requests, then exit 0',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const env = fakeEngineEnv(dataDir, null, {
        WORKER_CONCURRENCY: '1',
        FAKE_ENGINE_DELAY_MS: '3000',
        SHUTDOWN_TIMEOUT_MS: '30000',
        LOG_LEVEL: 'info', // its log lines are read below
      });
      const first = (running = await spawnService(env, SPAWN_TIMEOUT_MS));
      const key = await createKeyFor(env);
      const a = await createLinkPrediction(first.url, key, { input: { audio: link('a') } });
      const b = await createLinkPrediction(first.url, key, { input: { audio: link('b') } });
      await waitForOutput(first, new RegExp(`recognize ${a}`));
      const stopping = Date.now();
      const exited = first.kill('SIGTERM');
      await new Promise((done) => setTimeout(done, 300));
      await expect(fetch(`${first.url}/health`)).rejects.toThrow(); // no longer listening
      expect(await exited).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(25_000);
      expect(runsOf(first, b)).toBe(0);
      expectStoppedLog(first);
      const second = (running = await spawnService(env, SPAWN_TIMEOUT_MS));
      const doneA = await getPrediction(second.url, key, a);
      expect(doneA.status).toBe('succeeded'); // finished before the process exited
      const doneB = await waitForPrediction(second.url, key, b, isSettled, 60_000);
      expect(doneB.status).toBe('succeeded');
      expect(runsOf(second, a)).toBe(0);
      expect(runsOf(second, b)).toBe(1);
      await second.kill('SIGTERM');
      running = null;
    },
  );

  it(
    'should give a job that outlives SHUTDOWN_TIMEOUT_MS back to the queue, so the next start runs it once',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const env = fakeEngineEnv(dataDir, null, {
        WORKER_CONCURRENCY: '1',
        FAKE_ENGINE_DELAY_MS: '60000',
        SHUTDOWN_TIMEOUT_MS: '1500',
        LOG_LEVEL: 'info', // its log lines are read below
      });
      const first = (running = await spawnService(env, SPAWN_TIMEOUT_MS));
      const key = await createKeyFor(env);
      const c = await createLinkPrediction(first.url, key, { input: { audio: link('c') } });
      await waitForOutput(first, new RegExp(`recognize ${c}`));
      const stopping = Date.now();
      expect(await first.kill('SIGTERM')).toBe(0);
      const took = Date.now() - stopping;
      console.log(`stopped ${took} ms after SIGTERM with a 1500 ms deadline`);
      expect(took).toBeLessThan(15_000);
      // The interrupted try is told in words, with the signal, as a warning (not an error object with an empty stack).
      const interrupted = logLines(first.output()).filter((line) => line.prediction === c && line.signal === 'SIGTERM');
      expect(interrupted.map((line) => [line.level, line.component ?? 'run', line.msg])).toEqual([
        [40, 'run', 'interrupted: the service is stopping (SIGTERM) and its shutdown deadline of 1.5 s passed; the job queue retries it'],
        [40, 'worker', `prediction ${c} try 1 interrupted: the service is stopping (SIGTERM) and its shutdown deadline of 1.5 s passed`],
      ]);
      expect(interrupted.every((line) => line.err === undefined)).toBe(true);
      expectStoppedLog(first);
      const second = (running = await spawnService({ ...env, FAKE_ENGINE_DELAY_MS: '200' }, SPAWN_TIMEOUT_MS));
      const done = await waitForPrediction(second.url, key, c, isSettled, 60_000);
      expect(done.status).toBe('succeeded');
      expect(countLogLines(done.logs, 'succeeded')).toBe(1);
      expect(runsOf(second, c)).toBe(1);
      await second.kill('SIGTERM');
      running = null;
    },
  );
});
