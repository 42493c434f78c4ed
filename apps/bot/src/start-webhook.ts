import { createHash } from 'node:crypto';
import express, { type Router } from 'express';
import { webhookCallback, type Api, type Bot } from 'grammy';
import type { BotContext } from './bot-context.ts';
import { ALLOWED_UPDATES } from './start-polling.ts';

/**
 * Webhook mode: registers `url` with Telegram (setWebhook with the secret token) and returns an
 * express router taking Telegram's POSTs at the URL's path. grammY's callback answers 401 when
 * the `X-Telegram-Bot-Api-Secret-Token` header does not match.
 * @param register makes the setWebhook call through the caller's start-up tries: it gets a
 *   function that makes one try with a given Api and signal (start-bot.ts passes its bounded tries).
 * @throws what `register` throws.
 */
export async function startWebhook(
  bot: Bot<BotContext>,
  url: string,
  secret: string,
  register: (call: (api: Api, signal: AbortSignal) => Promise<unknown>) => Promise<unknown>,
): Promise<{ webhookHandler: Router; webhookPath: string }> {
  await register((api, signal) =>
    api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] }, signal as Parameters<Api['setWebhook']>[2]),
  );
  const webhookPath = new URL(url).pathname;
  const webhookHandler = express.Router();
  webhookHandler.post(
    webhookPath,
    express.json({ limit: '1mb' }),
    webhookCallback(bot, 'express', { secretToken: secret, onTimeout: 'return', timeoutMilliseconds: 10_000 }),
  );
  return { webhookHandler, webhookPath };
}

/** The configured secret, or one derived from the token (stable across restarts, never the token itself). */
export function webhookSecret(options: { token: string; webhookSecret?: string }): string {
  const secret = options.webhookSecret ?? createHash('sha256').update(`webhook:${options.token}`).digest('base64url');
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
    throw new Error('BOT_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -.');
  }
  return secret;
}
