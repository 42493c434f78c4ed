import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedPgliteDataDir } from '../../api/src/test-support/pglite-template.ts';
import { freePort, runScriptToEnd } from '../../api/src/test-support/spawn-service.ts';
import { findLogLines } from '../../api/src/test-support/read-log-lines.ts';
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

/**
 * Starts `npm run bot` in its own process group, so a stop reaches node under npm (and nothing else).
 * Its DATA_DIR starts with a copy of the migrated PGlite template (pglite-template.ts).
 */
async function spawnBot(env: Record<string, string>): Promise<SpawnedBot> {
  if (env.DATA_DIR && !env.DATABASE_URL) await seedPgliteDataDir(env.DATA_DIR);
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
    const bot = await spawnBot({
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
    const bot = await spawnBot({
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

/**
 * `npm run bot` when the Bot API cannot be reached: each try is logged with its cause, the start
 * fails after BOT_START_ATTEMPTS tries, and SIGINT ends the process at any point of the start (a
 * getMe that hangs, a wait between tries) and while a hanging Bot API holds the stop's last call.
 */
describe('npm run bot when the Bot API cannot be reached', () => {
  let dataDir: string;
  const spawned: SpawnedBot[] = [];
  const servers: TcpServer[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'bot-unreachable-'));
  });

  afterAll(async () => {
    for (const bot of spawned) await bot.stop('SIGKILL');
    for (const server of servers) await new Promise((done) => server.close(done));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /** The bot's warn lines of failed tries of getMe, in order. */
  const failedTries = (bot: SpawnedBot) => findLogLines(bot.output(), 'bot', /^Bot API getMe, try \d+/);

  it('should log every try with the refused host and port, then exit 1 with a message naming the cause', async () => {
    const port = await freePort(); // nothing listens there
    const bot = await spawnBot({
      DATA_DIR: join(dataDir, 'refused'),
      TELEGRAM_BOT_TOKEN: '123456:TEST-token_abc',
      TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
      BOT_START_ATTEMPTS: '3',
      PORT: String(await freePort()),
    });
    spawned.push(bot);
    const code = await waitForExit(bot, START_TIMEOUT_MS);
    const refused = `connection refused at 127.0.0.1:${port} (nothing listens there: is TELEGRAM_API_ROOT right, or does a firewall refuse it?)`;
    expect(failedTries(bot).map((line) => line.msg)).toEqual([
      `Bot API getMe, try 1 of 3 failed: ${refused}; next try in 1 s`,
      `Bot API getMe, try 2 of 3 failed: ${refused}; next try in 2 s`,
      `Bot API getMe, try 3 of 3 failed: ${refused}; no tries left`,
    ]);
    expect(findLogLines(bot.output(), 'bot', /^could not start: /).map((line) => line.msg)).toEqual([
      `could not start: the Bot API call getMe to http://127.0.0.1:${port} failed 3 times; last: ${refused}`,
    ]);
    expect(code).toBe(1);
    expect(bot.output()).not.toContain('123456:TEST-token_abc');
  });

  it('should stop at once on SIGINT while it keeps retrying a refused Bot API', async () => {
    const port = await freePort();
    const bot = await spawnBot({
      DATA_DIR: join(dataDir, 'refused-sigint'),
      TELEGRAM_BOT_TOKEN: '123456:TEST-token_abc',
      TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
      BOT_START_ATTEMPTS: '1000', // only the signal can end this start
      SHUTDOWN_TIMEOUT_MS: '3000',
      PORT: String(await freePort()),
    });
    spawned.push(bot);
    await waitFor(() => failedTries(bot).length >= 2, START_TIMEOUT_MS, bot.output);
    expect(await interrupt(bot)).toBe(0);
    expect(findLogLines(bot.output(), 'bot', 'stopped before the bot started: SIGINT arrived while the bot was starting')).toHaveLength(1);
    expect(findLogLines(bot.output(), 'bot', /could not start/)).toEqual([]);
  });

  it('should stop at once on SIGINT while getMe hangs on a server that never answers', async () => {
    let askedGetMe = false;
    const hanging = createTcpServer((socket) => {
      socket.on('data', (chunk: Buffer) => (askedGetMe ||= chunk.toString('latin1').includes('/getMe')));
    });
    servers.push(hanging);
    await new Promise<void>((done) => hanging.listen(0, '127.0.0.1', done));
    const bot = await spawnBot({
      DATA_DIR: join(dataDir, 'hanging-sigint'),
      TELEGRAM_BOT_TOKEN: '123456:TEST-token_abc',
      TELEGRAM_API_ROOT: `http://127.0.0.1:${(hanging.address() as { port: number }).port}`,
      BOT_START_ATTEMPTS: '1000',
      SHUTDOWN_TIMEOUT_MS: '3000',
      PORT: String(await freePort()),
    });
    spawned.push(bot);
    await waitFor(() => askedGetMe, START_TIMEOUT_MS, bot.output);
    expect(await interrupt(bot)).toBe(0);
    expect(findLogLines(bot.output(), 'bot', 'stopped before the bot started')).toHaveLength(1);
    hanging.close();
  });

  it('should stop on SIGINT, exit 0, when the Bot API hangs while the bot long-polls (the last getUpdates is cut)', async () => {
    const fake = await startFakeBotApi();
    try {
      const bot = await spawnBot({
        DATA_DIR: join(dataDir, 'polling-hangs'),
        TELEGRAM_BOT_TOKEN: fake.token,
        TELEGRAM_API_ROOT: fake.apiRoot,
        SHUTDOWN_TIMEOUT_MS: '3000',
        PORT: String(await freePort()),
      });
      spawned.push(bot);
      await waitFor(() => /"component":"bot".*running alone \(long polling\)/.test(bot.output()), START_TIMEOUT_MS, bot.output);
      fake.pushUpdate(commandUpdate(testUser(6363), '/start')); // answered: polling works
      await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 6363);
      fake.stall(); // from now on the Bot API takes every request and answers none
      expect(await interrupt(bot)).toBe(0);
      expect(
        findLogLines(bot.output(), 'bot', /^could not confirm the last update to the Bot API \(it may come again at the next start\)/),
      ).toHaveLength(1);
      expect(findLogLines(bot.output(), 'bot', /stop failed/)).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

/** Time a stopped bot may take to exit on a loaded machine, ms: far above SHUTDOWN_TIMEOUT_MS, far below "never". */
const EXIT_TIMEOUT_MS = 120_000;

/** Sends `signal`; resolves to the exit code, or to `still running` when the process has not exited after {@link EXIT_TIMEOUT_MS}. */
function interrupt(bot: SpawnedBot, signal: NodeJS.Signals = 'SIGINT'): Promise<number | null | 'still running'> {
  return Promise.race([bot.stop(signal), sleep(EXIT_TIMEOUT_MS).then(() => 'still running' as const)]);
}

/** Waits for the spawned bot to exit on its own; its exit code. @throws with its output after `timeoutMs`. */
async function waitForExit(bot: SpawnedBot, timeoutMs: number): Promise<number | null> {
  await waitFor(() => bot.child.exitCode !== null, timeoutMs, bot.output);
  return bot.child.exitCode;
}

/** Polls `check` every 50 ms; throws with `describe()` after `timeoutMs`. */
async function waitFor(check: () => boolean, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out:\n${output()}`);
    await sleep(50);
  }
}
