import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../api/src/test-support/spawn-service.ts';
import { REPO_ROOT } from '../../api/src/test-support/shared-paths.ts';
import { startFakeBotApi, testUser, type FakeBotApi } from './test-support/fake-bot-api.ts';
import { commandUpdate } from './test-support/telegram-updates.ts';

/** Time a child may take to open PGlite and start on a busy 2-core machine, ms. */
const START_TIMEOUT_MS = 180_000;

/** `npm run bot` (apps/bot/src/main.ts): the bot alone with the core, against a local Bot API server. */
describe('npm run bot', () => {
  let fake: FakeBotApi;
  let dataDir: string;
  let port: number;
  let child: ChildProcess;
  let output = '';

  beforeAll(async () => {
    fake = await startFakeBotApi();
    dataDir = await mkdtemp(join(tmpdir(), 'bot-alone-'));
    port = await freePort();
    // Its own process group, so the stop reaches node under npm (and nothing else).
    child = spawn('npm', ['run', '--silent', 'bot'], {
      cwd: REPO_ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot,
        HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', RECOGNITION_ENGINE: 'fake', MODELS_AUTO_INSTALL: '0',
      },
    });
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid!, 'SIGKILL');
      await exited;
    }
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('should answer /start in chat, serve no HTTP API, and stop cleanly on SIGTERM', async () => {
    await fake.waitForCall((call) => call.method === 'getMe', START_TIMEOUT_MS).catch(() => {
      throw new Error(`the bot never called getMe:\n${output}`);
    });
    await waitFor(() => /"component":"bot".*running alone \(long polling\)/.test(output), START_TIMEOUT_MS, () => output);
    fake.pushUpdate(commandUpdate(testUser(6161), '/start'));
    const reply = await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 6161, 60_000);
    expect(String(reply.payload.text)).not.toBe('');
    expect(fake.calls.some((call) => call.method === 'getUpdates')).toBe(true);

    // No HTTP API: nothing answers on PORT, and the data folder's lock names no port.
    const api = await fetch(`http://127.0.0.1:${port}/health`).then((response) => response.status, (error: Error) => error);
    expect(api).toBeInstanceOf(Error);
    const lock = JSON.parse(await readFile(join(dataDir, 'service.json'), 'utf8')) as { pid: number; port: number };
    expect(lock.port).toBe(0);

    const exited = new Promise<number | null>((done) => child.once('exit', done));
    process.kill(-child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
  });
});

/** Polls `check` every 50 ms; throws with `describe()` after `timeoutMs`. */
async function waitFor(check: () => boolean, timeoutMs: number, describe: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out:\n${describe()}`);
    await sleep(50);
  }
}
