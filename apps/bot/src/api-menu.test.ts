import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { apiKeys, ensureOwnerApiKey, telegramOwner } from '@transcribe/core';
import { startBot } from './start-bot.ts';
import { startTestBot, type TestBot } from './test-support/start-test-bot.ts';
import { pressGetToken } from './test-support/press-get-token.ts';
import { testUser } from './test-support/fake-bot-api.ts';
import { pressButton } from './test-support/telegram-updates.ts';
import { BOT_KEY_LABEL } from './transcribe-media.ts';

const getToken = pressGetToken;

async function account(t: TestBot, key: string): Promise<Response> {
  return fetch(`${t.service.replicateBase}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
}

describe('the API menu (spec 5.2, 5.3)', () => {
  let t: TestBot;

  beforeAll(async () => {
    t = await startTestBot();
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should issue a key tied to the Telegram user that works on the HTTP API, with a how-to and the base URL of each client', async () => {
    const { key, text } = await getToken(t.fake, 6001);
    const base = t.service.replicateBase;
    // The same three base URLs as the portal, each with its client; every one reaches the service with the key.
    const python = /Python client \(pip install replicate\): <code>base_url="([^"]+)"<\/code>/.exec(text)?.[1];
    const npm = /JavaScript client \(npm install replicate\): <code>baseUrl: "([^"]+)"<\/code>/.exec(text)?.[1];
    const openai = /OpenAI-compatible endpoint \/v1\/audio\/transcriptions: <code>baseURL: "([^"]+)"<\/code>/.exec(text)?.[1];
    expect([python, npm, openai]).toEqual([base, `${base}/v1`, `${t.service.url}/v1`]);
    const auth = { headers: { authorization: `Bearer ${key}` } };
    expect((await fetch(`${python}/v1/account`, auth)).status).toBe(200); // the Python client adds /v1/…
    expect((await fetch(`${npm}/account`, auth)).status).toBe(200); // the npm client adds /…
    expect((await fetch(`${openai}/models`, auth)).status).toBe(200); // the OpenAI SDKs add /models, /audio/transcriptions
    // The curl example starts with the line that puts the key where the rest reads it.
    expect(text).toContain(`<pre>export TRANSCRIBE_API_KEY="${key}"\ncurl -X POST ${base}/v1/models/service/transcribe/predictions`);
    expect(text).toContain('never in source code');
    const response = await account(t, key);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { key: { id: string } };
    const [row] = await t.service.service.ctx.database.db.select().from(apiKeys).where(eq(apiKeys.id, body.key.id));
    expect(row?.owner).toBe('telegram:6001');
  });

  it('should revoke the old key when the button is pressed again', async () => {
    const first = await getToken(t.fake, 6002);
    const second = await getToken(t.fake, 6002);
    expect(second.key).not.toBe(first.key);
    expect(second.text).toContain('Your previous key stops working now:');
    expect((await account(t, first.key)).status).toBe(401);
    expect((await account(t, second.key)).status).toBe(200);
    // Another person's key is untouched.
    const other = await getToken(t.fake, 6003);
    await getToken(t.fake, 6002);
    expect((await account(t, other.key)).status).toBe(200);
  });

  it('should explain a first key without speaking of a previous one, even when chat work made a hidden key, and warn on a reissue', async () => {
    // A person who sent recordings before holds a key the bot made silently; they never saw it.
    await ensureOwnerApiKey(t.service.service.ctx.database.db, telegramOwner(6005), BOT_KEY_LABEL);
    const first = await getToken(t.fake, 6005);
    expect(first.text).toMatch(/^🔑 Your API key\. With it, your own programs/);
    expect(first.text).toContain('Keep it like a password');
    expect(first.text).not.toMatch(/previous key/);
    const second = await getToken(t.fake, 6005);
    expect(second.text).toMatch(/^🔑 Your new API key\. Your previous key stops working now:/);
    expect(second.text).not.toContain('Keep it like a password');
  });

  it('should offer to delete the message holding the key, now or after a while', async () => {
    const user = testUser(6006);
    const { messageId } = await getToken(t.fake, 6006);
    const buttons = JSON.stringify(t.fake.messages.get(messageId)?.reply_markup);
    expect(buttons).toContain('Delete it in 10 minutes');
    const from = t.fake.calls.length;
    pressButton(t.fake, user, messageId, /Delete it in 10 minutes/);
    const later = await t.fake.waitForCall((c) => t.fake.calls.indexOf(c) >= from && c.method === 'answerCallbackQuery');
    expect(later.payload.text).toMatch(/delete this message in 10 minutes/);
    expect(t.fake.calls.some((c) => c.method === 'deleteMessage' && c.payload.message_id === messageId)).toBe(false);
    pressButton(t.fake, user, messageId, /Delete this message/);
    await t.fake.waitForCall((c) => c.method === 'deleteMessage' && c.payload.message_id === messageId && c.payload.chat_id === 6006);
  });

  it('should keep the old key working during a configured grace period of at most 5 minutes', async () => {
    const { startFakeBotApi } = await import('./test-support/fake-bot-api.ts');
    const fake = await startFakeBotApi();
    const bot = await startBot(t.service.service.ctx, {
      token: fake.token,
      apiRoot: fake.apiRoot,
      publicApiBaseUrl: 'https://example.test/v1/replicate',
      keyGraceSeconds: 120,
    });
    try {
      const first = await getToken(fake, 6004);
      const second = await getToken(fake, 6004);
      expect(second.text).toContain('Your previous key stops working in 2 minutes:');
      expect((await account(t, first.key)).status).toBe(200);
      const [old] = await t.service.service.ctx.database.db
        .select()
        .from(apiKeys)
        .where(eq(apiKeys.prefix, first.key.slice(0, 10)));
      expect(old!.revokedAt!.getTime() - Date.now()).toBeGreaterThan(100_000);
      expect(old!.revokedAt!.getTime() - Date.now()).toBeLessThanOrEqual(120_000);
    } finally {
      await bot.stop();
      await fake.close();
    }
    await expect(
      startBot(t.service.service.ctx, { token: fake.token, apiRoot: fake.apiRoot, publicApiBaseUrl: 'x', keyGraceSeconds: 301 }),
    ).rejects.toThrow(/0\.\.300 seconds/);
  });
});
