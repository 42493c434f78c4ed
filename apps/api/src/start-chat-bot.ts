import type { Router } from 'express';
import { logEvent, type ServiceContext } from '@transcribe/core';
import type { Env } from './env.ts';

/**
 * Starts the Telegram bot (apps/bot) beside the API when TELEGRAM_BOT_TOKEN is set: long polling by
 * default, or webhook mode on `router` (mounted on the express app) when BOT_WEBHOOK_URL is set.
 * Returns its stop function, or null when no token is configured (the bot and grammY are then not
 * even loaded, which keeps them out of the service's memory).
 * @throws Error with a plain message when Telegram refuses the token.
 */
export async function startChatBot(ctx: ServiceContext, env: Env, router: Router): Promise<(() => Promise<void>) | null> {
  if (!env.TELEGRAM_BOT_TOKEN) return null;
  const { startBot } = await import('@transcribe/bot');
  const bot = await startBot(ctx, {
    token: env.TELEGRAM_BOT_TOKEN,
    apiRoot: env.TELEGRAM_API_ROOT,
    webhookUrl: env.BOT_WEBHOOK_URL,
    webhookSecret: env.BOT_WEBHOOK_SECRET,
    keyGraceSeconds: env.KEY_REISSUE_GRACE_SECONDS,
    publicApiBaseUrl: ctx.config.apiBaseUrl.replace(/\/v1$/, ''),
  });
  if (bot.webhookHandler) router.use(bot.webhookHandler);
  logEvent(ctx, 'info', 'bot', `@${bot.username} running (${env.BOT_WEBHOOK_URL ? 'webhook' : 'long polling'})`);
  return () => bot.stop();
}
