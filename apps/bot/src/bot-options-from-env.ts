import type { ServiceContext } from '@transcribe/core';
import type { Env } from '../../api/src/env.ts';
import { DEFAULT_STOP_TIMEOUT_MS, type StartBotOptions } from './bot-context.ts';

/**
 * The options of startBot that come from the environment (README, "Configuration"), in one place
 * for both ways of running the bot: beside the API (`npm start`, apps/api/src/start-chat-bot.ts)
 * and alone (`npm run bot`, start-bot-alone.ts). Each caller adds what differs: how long start-up
 * retries, a signal, a hook per failed try.
 * - the client base shown in the how-to is the service's API base without its inner `/v1`;
 * - the stop waits for grammY's last calls at most min(5 s, SHUTDOWN_TIMEOUT_MS).
 * @param token TELEGRAM_BOT_TOKEN, checked by the caller (each says in its own words that it is missing).
 */
export function botOptionsFromEnv(env: Env, ctx: ServiceContext, token: string): StartBotOptions {
  return {
    token,
    apiRoot: env.TELEGRAM_API_ROOT,
    webhookUrl: env.BOT_WEBHOOK_URL,
    webhookSecret: env.BOT_WEBHOOK_SECRET,
    keyGraceSeconds: env.KEY_REISSUE_GRACE_SECONDS,
    publicApiBaseUrl: ctx.config.apiBaseUrl.replace(/\/v1$/, ''),
    startAttempts: env.BOT_START_ATTEMPTS,
    stopTimeoutMs: Math.min(DEFAULT_STOP_TIMEOUT_MS, env.SHUTDOWN_TIMEOUT_MS),
  };
}
