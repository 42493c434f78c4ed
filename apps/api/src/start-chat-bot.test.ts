import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeBotApi, testUser, type FakeBotApi } from '../../bot/src/test-support/fake-bot-api.ts';
import { commandUpdate } from '../../bot/src/test-support/telegram-updates.ts';
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
