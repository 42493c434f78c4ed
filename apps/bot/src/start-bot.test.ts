import { createServer, type Server } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../api/src/test-support/start-test-service.ts';
import { startBot, type RunningBot } from './start-bot.ts';
import { startFakeBotApi, testUser, type FakeBotApi } from './test-support/fake-bot-api.ts';
import { commandUpdate } from './test-support/telegram-updates.ts';

const SECRET = 'hook_Secret-42';

describe('starting the bot', () => {
  let t: TestService;
  let fake: FakeBotApi;
  let bot: RunningBot;
  let server: Server;
  let hookUrl: string;

  beforeAll(async () => {
    t = await startTestService('postgres');
    fake = await startFakeBotApi();
    bot = await startBot(t.service.ctx, {
      token: fake.token,
      apiRoot: fake.apiRoot,
      publicApiBaseUrl: t.replicateBase,
      keyGraceSeconds: 300,
      webhookUrl: 'https://bot.example.test/telegram/hook',
      webhookSecret: SECRET,
    });
    const app = express();
    app.use(bot.webhookHandler!);
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    hookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}${bot.webhookPath}`;
  });

  afterAll(async () => {
    server?.close();
    await bot?.stop();
    await fake?.close();
    await t?.stop();
  });

  function post(update: unknown, secret = SECRET): Promise<Response> {
    return fetch(hookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify(update),
    });
  }

  it('should register the webhook with its secret token and the command list, and not poll', async () => {
    const setWebhook = fake.calls.find((c) => c.method === 'setWebhook');
    expect(setWebhook?.payload).toMatchObject({ url: 'https://bot.example.test/telegram/hook', secret_token: SECRET });
    expect(bot.webhookPath).toBe('/telegram/hook');
    expect(fake.calls.find((c) => c.method === 'setMyCommands')?.payload.commands).toContainEqual({
      command: 'settings',
      description: expect.any(String),
    });
    expect(fake.calls.some((c) => c.method === 'getUpdates')).toBe(false);
  });

  it('should handle updates posted with the right secret: /start and /usage', async () => {
    const user = testUser(9001);
    expect((await post({ update_id: 1, ...commandUpdate(user, '/start') })).status).toBe(200);
    const help = await fake.waitForCall((c) => c.method === 'sendMessage' && c.payload.chat_id === user.id);
    expect(String(help.payload.text)).toMatch(
      /^Send me a voice message.*\n.*300 MiB.*no language model\.\n\n\/help – What I can do\n\/settings/s,
    );
    expect((await post({ update_id: 2, ...commandUpdate(user, '/usage') })).status).toBe(200);
    await fake.waitForCall(
      (c) => c.method === 'sendMessage' && c.payload.text === 'You have not transcribed anything yet. Send me a voice message to start.',
    );
  });

  it("should refuse updates without Telegram's secret-token header", async () => {
    const user = testUser(9002);
    const response = await post({ update_id: 3, ...commandUpdate(user, '/start') }, 'wrong');
    expect(response.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.calls.some((c) => c.payload.chat_id === user.id)).toBe(false);
  });

  it('should fail to start with a plain message when the token is refused, without trying again', async () => {
    const started = startBot(t.service.ctx, { token: '1:wrong', apiRoot: fake.apiRoot, publicApiBaseUrl: 'x', keyGraceSeconds: 0 });
    await expect(started).rejects.toThrow(
      `the Bot API call getMe to ${fake.apiRoot} failed once; last: HTTP 401 from the Bot API: the token is wrong (check TELEGRAM_BOT_TOKEN with @BotFather)`,
    );
    await expect(started).rejects.toMatchObject({ name: 'BotStartError', retryable: false });
  });

  it.each([
    ['an HTML page', 'text/html', '<html><body><h1>404 Not Found</h1></body></html>'],
    ['JSON that is not a Bot API answer', 'application/json', '{"detail":"Not Found"}'],
  ])(
    'should name HTTP 404 and TELEGRAM_API_ROOT, not "undefined: undefined", when the API root answers 404 with %s',
    async (_what, type, body) => {
      const notBotApi = createServer((_req, res) => res.writeHead(404, { 'content-type': type }).end(body));
      await new Promise<void>((resolve) => notBotApi.listen(0, '127.0.0.1', resolve));
      const root = `http://127.0.0.1:${(notBotApi.address() as { port: number }).port}`;
      try {
        const started = startBot(t.service.ctx, {
          token: fake.token,
          apiRoot: root,
          publicApiBaseUrl: 'x',
          keyGraceSeconds: 0,
          startAttempts: 2,
        });
        await expect(started).rejects.toThrow(
          `the Bot API call getMe to ${root} failed 2 times; last: HTTP 404 from the API root ${root} (not a Bot API answer: ${type}): ` +
            'is TELEGRAM_API_ROOT right? (api.telegram.org also answers 404 to a malformed token)',
        );
        await expect(started).rejects.not.toThrow(/undefined/);
      } finally {
        notBotApi.closeAllConnections();
        await new Promise((resolve) => notBotApi.close(resolve));
      }
    },
    60_000,
  );

  it('should refuse a malformed webhook secret', async () => {
    await expect(
      startBot(t.service.ctx, {
        token: fake.token,
        apiRoot: fake.apiRoot,
        publicApiBaseUrl: 'x',
        keyGraceSeconds: 0,
        webhookUrl: 'https://h/x',
        webhookSecret: 'has spaces',
      }),
    ).rejects.toThrow(/BOT_WEBHOOK_SECRET/);
  });
});
