import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, runScriptToEnd } from '../../api/src/test-support/spawn-service.ts';
import { REPO_ROOT } from '../../api/src/test-support/shared-paths.ts';
import { startFakeBotApi, testUser, type FakeBotApi } from './test-support/fake-bot-api.ts';
import { commandUpdate } from './test-support/telegram-updates.ts';

/** Time a child may take to open PGlite and start on a busy 2-core machine, ms. */
const START_TIMEOUT_MS = 180_000;

interface SpawnedBot {
  child: ChildProcess;
  output(): string;
  /** Sends SIGTERM to the process group (npm and the node under it); resolves to the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `npm run bot` in its own process group, so a stop reaches node under npm (and nothing else). */
function spawnBot(env: Record<string, string>): SpawnedBot {
  const child = spawn('npm', ['run', '--silent', 'bot'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RECOGNITION_ENGINE: 'fake',
      MODELS_AUTO_INSTALL: '0',
      ...env,
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return {
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((done) => {
        if (child.exitCode !== null) return done(child.exitCode);
        child.once('exit', (code) => done(code));
        process.kill(-child.pid!, signal);
      }),
  };
}

/** `npm run bot` (apps/bot/src/main.ts): the bot alone with the core, against a local Bot API server. */
describe('npm run bot', () => {
  let fake: FakeBotApi;
  let dataDir: string;
  const spawned: SpawnedBot[] = [];

  beforeAll(async () => {
    fake = await startFakeBotApi();
    dataDir = await mkdtemp(join(tmpdir(), 'bot-alone-'));
  });

  afterAll(async () => {
    for (const bot of spawned) await bot.stop('SIGKILL');
    await fake?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('should answer /start by long polling, serve no HTTP API, serve the key CLI over loopback, and stop on SIGTERM', async () => {
    const port = await freePort();
    const bot = spawnBot({
      DATA_DIR: join(dataDir, 'polling'),
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      PORT: String(port),
    });
    spawned.push(bot);
    await waitFor(() => /"component":"bot".*running alone \(long polling\)/.test(bot.output()), START_TIMEOUT_MS, bot.output);
    expect(fake.calls.some((call) => call.method === 'getMe')).toBe(true);
    fake.pushUpdate(commandUpdate(testUser(6161), '/start'));
    const reply = await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 6161, 60_000);
    expect(String(reply.payload.text)).not.toBe('');
    expect(fake.calls.some((call) => call.method === 'getUpdates')).toBe(true);

    // No HTTP API: nothing answers on PORT; the data folder's lock names a loopback port serving only
    // the CLIs' admin routes (PGlite has one owner), so the key CLI works while the bot runs.
    const api = await fetch(`http://127.0.0.1:${port}/health`).then(
      (response) => response.status,
      (error: Error) => error,
    );
    expect(api).toBeInstanceOf(Error);
    const lock = JSON.parse(await readFile(join(dataDir, 'polling', 'service.json'), 'utf8')) as { port: number };
    expect(lock.port).toBeGreaterThan(0);
    expect(lock.port).not.toBe(port);
    expect((await fetch(`http://127.0.0.1:${lock.port}/health`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${lock.port}/internal/api-keys`)).status).toBe(404); // no admin token
    const created = await runScriptToEnd('apps/api/src/cli/apikey.ts', ['create', '--label', 'beside the bot'], {
      DATA_DIR: join(dataDir, 'polling'),
    });
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const listed = await runScriptToEnd('apps/api/src/cli/apikey.ts', ['list'], { DATA_DIR: join(dataDir, 'polling') });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/beside the bot/);

    expect(await bot.stop()).toBe(0);
  });

  it('should take updates on its webhook path only, with the secret, when BOT_WEBHOOK_URL is set', async () => {
    const port = await freePort();
    const hook = `http://127.0.0.1:${port}/telegram-hook`;
    const bot = spawnBot({
      DATA_DIR: join(dataDir, 'webhook'),
      TELEGRAM_BOT_TOKEN: fake.token,
      TELEGRAM_API_ROOT: fake.apiRoot,
      PORT: String(port),
      BOT_WEBHOOK_URL: hook,
    });
    spawned.push(bot);
    await waitFor(() => /"component":"bot".*running alone \(webhook, listening on/.test(bot.output()), START_TIMEOUT_MS, bot.output);
    const registered = await fake.waitForCall((call) => call.method === 'setWebhook');
    expect(registered.payload.url).toBe(hook);
    const update = { update_id: 1, ...commandUpdate(testUser(6262), '/start') };
    const post = (secret: string) =>
      fetch(hook, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
        body: JSON.stringify(update),
      });
    expect((await post('wrong')).status).toBe(401);
    expect((await post(String(registered.payload.secret_token))).status).toBe(200);
    await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 6262, 60_000);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(404); // the webhook only, no API
    expect(await bot.stop()).toBe(0);
  });
});

/** Polls `check` every 50 ms; throws with `describe()` after `timeoutMs`. */
async function waitFor(check: () => boolean, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out:\n${output()}`);
    await sleep(50);
  }
}
