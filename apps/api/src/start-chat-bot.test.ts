import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, testUser, type FakeBotApi } from '../../bot/src/test-support/fake-bot-api.ts';
import { commandUpdate } from '../../bot/src/test-support/telegram-updates.ts';
import { findLogLines } from './test-support/read-log-lines.ts';
import { freePort, spawnService } from './test-support/spawn-service.ts';
import { startTestService, type TestService } from './test-support/start-test-service.ts';

/** `npm start` with TELEGRAM_BOT_TOKEN runs the bot beside the API, here against a local Bot API server. */
describe('the service with TELEGRAM_BOT_TOKEN set', () => {
  let fake: FakeBotApi;
  let t: TestService;

  beforeAll(async () => {
    fake = await startFakeBotApi();
    t = await startTestService('pglite', { TELEGRAM_BOT_TOKEN: fake.token, TELEGRAM_API_ROOT: fake.apiRoot });
  });

  afterAll(async () => {
    await t?.stop();
    await fake?.close();
  });

  it('should answer /help in chat while serving the HTTP API', async () => {
    fake.pushUpdate(commandUpdate(testUser(4242), '/help'));
    const reply = await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 4242, 30_000);
    expect(String(reply.payload.text)).toMatch(/voice|audio/i);
    const health = await fetch(`${t.url}/health`);
    expect(health.status).toBe(200);
  });

  it('should send a one-time portal sign-in link for /portal that opens the sign-in page', async () => {
    fake.pushUpdate(commandUpdate(testUser(4343), '/portal'));
    const reply = await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 4343, 30_000);
    const url = /https?:\/\/\S+/.exec(String(reply.payload.text))?.[0];
    expect(url).toMatch(/\/portal\//);
    const page = await fetch(url!.replace(/^https?:\/\/[^/]+/, t.url));
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/Sign in/i);
  });
});

/**
 * `npm start` with TELEGRAM_BOT_TOKEN when the Bot API cannot be reached: the API comes up and
 * serves at once, `/ready` answers 503 naming the bot's cause while it retries in the background,
 * and the bot comes up as soon as the Bot API answers.
 */
describe('the service with TELEGRAM_BOT_TOKEN set when the Bot API cannot be reached', () => {
  const TOKEN = '123456:TEST-token_abc';
  let fake: FakeBotApi | null = null;
  let t: TestService | null = null;
  let logs = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logs += chunk.toString('utf8');
      done();
    },
  });

  afterEach(async () => {
    await t?.stop();
    await fake?.close();
    t = null;
    fake = null;
    logs = '';
  });

  const readiness = async () => {
    const response = await fetch(`${t!.url}/ready`);
    return { status: response.status, body: (await response.json()) as { status: string; checks: Record<string, string> } };
  };

  it('should serve the API at once, answer /ready 503 naming the refused Bot API while it retries, then run the bot once the Bot API answers', async () => {
    const port = await freePort(); // nothing listens there yet
    t = await within(
      startTestService(
        'pglite',
        { TELEGRAM_BOT_TOKEN: TOKEN, TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`, BOT_START_ATTEMPTS: '2', LOG_LEVEL: 'info' },
        { logDestination: destination },
      ),
      'the service to start while the Bot API refuses connections',
    );
    const account = await fetch(`${t.replicateBase}/v1/account`, { headers: { authorization: `Bearer ${t.key}` } });
    expect(account.status).toBe(200);
    expect((await fetch(`${t.url}/health`)).status).toBe(200);

    const refused = `connection refused at 127.0.0.1:${port} (nothing listens there: is TELEGRAM_API_ROOT right, or does a firewall refuse it?)`;
    await waitUntil(
      async () => (await readiness()).body.checks.bot?.includes(refused) === true,
      () => logs,
    );
    const notReady = await readiness();
    expect(notReady.status).toBe(503);
    expect(notReady.body.status).toBe('not ready');
    expect(notReady.body.checks).toMatchObject({ database: 'ok', queue: 'ok', engine: 'ok', disk: 'ok' });
    expect(notReady.body.checks.bot).toMatch(/^the Telegram bot is not running: Bot API getMe, try \d+ failed: connection refused at /);

    // One line per try, with the cause and the wait; after BOT_START_ATTEMPTS tries, one error line.
    await waitUntil(
      async () => findLogLines(logs, 'bot', /could not reach the Bot API in 2 tries/).length === 1,
      () => logs,
    );
    const tries = findLogLines(logs, 'bot', /^Bot API getMe, try \d+ failed/).map((line) => line.msg);
    expect(tries.slice(0, 2)).toEqual([
      `Bot API getMe, try 1 failed: ${refused}; next try in 1 s`,
      `Bot API getMe, try 2 failed: ${refused}; next try in 2 s`,
    ]);
    expect(findLogLines(logs, 'bot', /could not reach the Bot API in 2 tries/)[0]).toMatchObject({ level: 50 });

    // The Bot API comes up where the bot has been trying it: the bot starts, /ready turns ready.
    fake = await startFakeBotApi(TOKEN, { port });
    await waitUntil(
      async () => (await readiness()).status === 200,
      () => logs,
    );
    expect((await readiness()).body.checks.bot).toBe('ok');
    fake.pushUpdate(commandUpdate(testUser(4545), '/help'));
    await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 4545, 30_000);
    expect(findLogLines(logs, 'bot', /^@transcribe_test_bot running \(long polling\)$/)).toHaveLength(1);

    // The Bot API goes away while the bot runs: grammY retries getUpdates silently every 3 s; the
    // bot logs it and, after 3 failures in a row, /ready says so. It comes back: ready again.
    await fake.goAway();
    await waitUntil(
      async () => (await readiness()).body.checks.bot?.includes(refused) === true,
      () => logs,
    );
    const pollingFails = await readiness();
    expect(pollingFails.status).toBe(503);
    expect(pollingFails.body.checks.bot).toMatch(
      /^the Telegram bot runs, but long polling fails since \S+ \(\d+ tries\): connection refused at /,
    );
    expect(findLogLines(logs, 'bot', /^long polling: getUpdates failed: /)).toHaveLength(1);
    await fake.listenAgain();
    fake.pushUpdate(commandUpdate(testUser(4646), '/help')); // answers the next long poll at once
    await fake.waitForCall((call) => call.method === 'sendMessage' && call.payload.chat_id === 4646, 30_000);
    await waitUntil(
      async () => (await readiness()).status === 200,
      () => logs,
    );
    expect(findLogLines(logs, 'bot', /^long polling works again after \d+ failed getUpdates since /)).toHaveLength(1);
  });

  it('should keep serving without the bot when the Bot API refuses the token (401), and say so on /ready', async () => {
    fake = await startFakeBotApi(TOKEN);
    t = await within(
      startTestService(
        'pglite',
        { TELEGRAM_BOT_TOKEN: '654321:WRONG-token', TELEGRAM_API_ROOT: fake.apiRoot, LOG_LEVEL: 'info' },
        { logDestination: destination },
      ),
      'the service to start with a token the Bot API refuses',
    );
    await waitUntil(
      async () => (await readiness()).body.checks.bot?.startsWith('the Telegram bot is off') === true,
      () => logs,
    );
    const notReady = await readiness();
    expect(notReady.status).toBe(503);
    expect(notReady.body.checks.bot).toBe(
      `the Telegram bot is off: the Bot API call getMe to ${fake.apiRoot} failed once; last: ` +
        'HTTP 401 from the Bot API: the token is wrong (check TELEGRAM_BOT_TOKEN with @BotFather)',
    );
    expect(findLogLines(logs, 'bot', /^Bot API getMe, try \d+ failed/)).toHaveLength(1); // 401 is not tried again
    expect((await fetch(`${t.replicateBase}/v1/account`, { headers: { authorization: `Bearer ${t.key}` } })).status).toBe(200);
    expect(logs).not.toContain('654321:WRONG-token');
  });
});

/**
 * `npm start` (apps/api/src/main.ts) in a child process with a Bot API root that refuses
 * connections: "listening on" is logged at once, /ready names the bot, and SIGINT ends the process
 * (exit 0) while the bot is retrying.
 */
describe('npm start with TELEGRAM_BOT_TOKEN set when the Bot API refuses connections', () => {
  it('should log "listening on", answer /ready 503 naming the bot, and exit 0 on SIGINT while the bot retries', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'start-bot-refused-'));
    const port = await freePort();
    const service = await spawnService(
      {
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        NODE_ENV: 'test',
        RECOGNITION_ENGINE: 'fake',
        TELEGRAM_BOT_TOKEN: '123456:TEST-token_abc',
        TELEGRAM_API_ROOT: `http://127.0.0.1:${port}`,
        BOT_START_ATTEMPTS: '1000',
        SHUTDOWN_TIMEOUT_MS: '3000',
      },
      180_000,
    );
    try {
      await waitUntil(async () => findLogLines(service.output(), 'service', /^listening on /).length === 1, service.output);
      await waitUntil(async () => {
        const body = (await (await fetch(`${service.url}/ready`)).json()) as { checks: Record<string, string> };
        return body.checks.bot?.includes(`connection refused at 127.0.0.1:${port}`) === true;
      }, service.output);
      expect((await fetch(`${service.url}/ready`)).status).toBe(503);
      const exit = await Promise.race([service.kill('SIGINT'), sleep(120_000).then(() => 'still running' as const)]);
      expect(exit).toBe(0);
    } finally {
      await service.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/** `promise`, or a failure naming `what` when it has not settled within 120 s (today's code hung here for good). */
function within<T>(promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    sleep(120_000).then(() => {
      throw new Error(`timed out waiting for ${what}`);
    }),
  ]);
}

/** Polls `check` every 100 ms for up to 120 s; throws with `output()` when it never holds. */
async function waitUntil(check: () => Promise<boolean>, output: () => string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out; output:\n${output()}`);
    await sleep(100);
  }
}
