import { setTimeout as sleep } from 'node:timers/promises';
import type { Router } from 'express';
import { logEvent, type ServiceContext } from '@transcribe/core';
import type { RunningBot } from '@transcribe/bot';
import type { Env } from './env.ts';

/** Longest wait between the background bot's tries of the Bot API, ms (5 minutes). */
export const BOT_RETRY_MAX_DELAY_MS = 5 * 60 * 1000;
/** Wait before starting the bot again after a start that failed for another reason (the database), ms. */
const RESTART_DELAY_MS = 60_000;

/** The bot beside the API: what `/ready` says of it, and its stop. */
export interface ChatBot {
  /** `ok` once the bot runs (and its long polling works); else what it is doing or what is wrong. */
  readiness(): string;
  /** Calls off a start in progress (its Bot API calls too), or stops the running bot; resolves when done. */
  stop(): Promise<void>;
}

/**
 * Starts the Telegram bot (apps/bot) beside the API when TELEGRAM_BOT_TOKEN is set: long polling by
 * default, or webhook mode on `router` (mounted on the express app) when BOT_WEBHOOK_URL is set.
 * Returns at once: the bot starts in the background, so the API listens and serves whatever the Bot
 * API does. Until the bot runs, `readiness()` says why not (`/ready` then answers 503 with a `bot`
 * check): every failed try of the Bot API is logged (warn) with its cause and the wait before the
 * next, 1 s, 2 s, 4 s, … up to 5 minutes, without end; after BOT_START_ATTEMPTS failed tries one
 * error line says the API serves without the bot. The one answer that ends the tries is 401 (the
 * token is wrong): the bot then stays off, logged as an error and reported by `readiness()`, until
 * the service is restarted with a right token. Returns null when no token is configured (the bot
 * and grammY are then not even loaded, which keeps them out of the service's memory).
 */
export async function startChatBot(ctx: ServiceContext, env: Env, router: Router): Promise<ChatBot | null> {
  if (!env.TELEGRAM_BOT_TOKEN) return null;
  const token = env.TELEGRAM_BOT_TOKEN;
  const { BotStartError, botOptionsFromEnv, startBot } = await import('@transcribe/bot');
  const stopping = new AbortController();
  let state = 'the Telegram bot is starting: reaching the Bot API';
  let bot: RunningBot | null = null;

  const startOnce = async () => {
    bot = await startBot(ctx, {
      ...botOptionsFromEnv(env, ctx, token),
      startAttempts: Infinity, // beside the API the bot keeps trying; BOT_START_ATTEMPTS only decides when to say so
      startMaxDelayMs: BOT_RETRY_MAX_DELAY_MS,
      signal: stopping.signal,
      onFailedTry(failed) {
        const next = failed.nextDelayMs === null ? '' : `; next try in ${Math.round(failed.nextDelayMs / 1000)} s`;
        state = `the Telegram bot is not running: Bot API ${failed.method}, try ${failed.tryNumber} failed: ${failed.failure.cause}${next}`;
        if (failed.tryNumber === env.BOT_START_ATTEMPTS && failed.nextDelayMs !== null) {
          logEvent(
            ctx,
            'error',
            'bot',
            `the Telegram bot could not reach the Bot API in ${failed.tryNumber} tries (last: ${failed.failure.cause}); ` +
              'the API serves without it (/ready reports it) and it keeps trying, at most 5 min apart',
          );
        }
      },
    });
    if (bot.webhookHandler) router.use(bot.webhookHandler);
    logEvent(ctx, 'info', 'bot', `@${bot.username} running (${env.BOT_WEBHOOK_URL ? 'webhook' : 'long polling'})`);
  };

  const starting = (async () => {
    while (!stopping.signal.aborted) {
      try {
        return await startOnce();
      } catch (error) {
        if (stopping.signal.aborted) return;
        const message = (error as Error).message;
        if (error instanceof BotStartError && !error.retryable) {
          state = `the Telegram bot is off: ${message}`;
          logEvent(
            ctx,
            'error',
            'bot',
            `${message}; the bot stays off (the API serves without it) until the service restarts with a right token`,
          );
          return;
        }
        state = `the Telegram bot is not running: ${message}; it starts again in ${RESTART_DELAY_MS / 1000} s`;
        logEvent(ctx, 'error', 'bot', `the Telegram bot could not start: ${message}; it starts again in ${RESTART_DELAY_MS / 1000} s`);
        await sleep(RESTART_DELAY_MS, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
  })();

  return {
    readiness() {
      if (!bot) return state;
      const health = (bot as RunningBot).health();
      return health === 'ok' ? 'ok' : `the Telegram bot runs, but ${health}`;
    },
    async stop() {
      stopping.abort(new Error('The service is stopping.'));
      await starting;
      await (bot as RunningBot | null)?.stop();
    },
  };
}
