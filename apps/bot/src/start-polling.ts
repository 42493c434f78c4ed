import type { Bot } from 'grammy';
import { logEvent, type ServiceContext } from '@transcribe/core';
import type { BotContext } from './bot-context.ts';
import { describeBotApiFailure, type BotApiTarget } from './describe-bot-api-failure.ts';
import { logBotFailure } from './log-bot-failure.ts';

/** Updates the bot asks Telegram for. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** Failed `getUpdates` in a row (grammY tries again every 3 s) before long polling counts as failing. */
const FAILING_AFTER = 3;
/** While polling keeps failing, one log line per this many failures (about one a minute). */
const LOG_EVERY = 20;

/** Long polling that runs. */
export interface Polling {
  /** `ok`, or what is wrong: polling failing for a while (and why), or stopped for good (and why). */
  health(): string;
  /** Stops polling (grammY confirms the last update to Telegram); resolves once the loop ended. */
  stop(): Promise<void>;
}

/**
 * Starts long polling (grammY's `bot.start()`); resolves once polling runs. grammY retries a failed
 * `getUpdates` every 3 s without a word, so each call is watched (an API transformer): the first
 * failure of a run of them is logged (warn, with its cause from describe-bot-api-failure.ts), then one
 * line every 20 failures, and "works again" once a poll succeeds; after 3 failures in a row
 * `health()` says polling fails. A loop that ends with an error (401, or 409: another process polls
 * with the same token) is logged (error) and `health()` says so from then on.
 * `signal` aborting while polling starts (grammY's deleteWebhook, retried by grammY without end)
 * stops it.
 * @param target where the Bot API is, to name it in the words (method is `getUpdates`).
 * @throws the error that stopped polling before it started; the signal's reason when `signal` aborts first.
 */
export async function startPolling(
  ctx: Pick<ServiceContext, 'logger'>,
  bot: Bot<BotContext>,
  target: Pick<BotApiTarget, 'apiRoot' | 'token'>,
  signal?: AbortSignal,
): Promise<Polling> {
  let failing: { since: Date; count: number; cause: string } | null = null;
  let stopped: string | null = null;
  bot.api.config.use(async (prev, method, payload, callSignal) => {
    if (method !== 'getUpdates' || stopped !== null) return prev(method, payload, callSignal);
    const noteFailure = async (error: unknown) => {
      if ((callSignal as unknown as AbortSignal | undefined)?.aborted || !bot.isRunning()) return; // a stop, not a failure
      const { cause } = await describeBotApiFailure(error, { ...target, method });
      failing = { since: failing?.since ?? new Date(), count: (failing?.count ?? 0) + 1, cause };
      if (failing.count === 1 || failing.count % LOG_EVERY === 0) {
        const count = failing.count === 1 ? '' : ` (${failing.count} failures since ${failing.since.toISOString()})`;
        logEvent(ctx, 'warn', 'bot', `long polling: getUpdates failed${count}: ${cause}; grammY tries again every 3 s`);
      }
    };
    try {
      const answer = await prev(method, payload, callSignal);
      if (!answer.ok) await noteFailure({ ...answer, ok: false });
      else if (failing) {
        logEvent(
          ctx,
          'info',
          'bot',
          `long polling works again after ${failing.count} failed getUpdates since ${failing.since.toISOString()}`,
        );
        failing = null;
      }
      return answer;
    } catch (error) {
      await noteFailure(error);
      throw error;
    }
  });
  let loop: Promise<void> = Promise.resolve();
  let stopStarting = () => {};
  await new Promise<void>((resolve, reject) => {
    stopStarting = () => {
      if (bot.isRunning()) void bot.stop().catch(() => undefined); // its confirmation fails too: the Bot API is not there
      reject(signal!.reason);
    };
    if (signal?.aborted) return stopStarting();
    signal?.addEventListener('abort', stopStarting, { once: true });
    const running = bot.start({ onStart: () => resolve(), allowed_updates: [...ALLOWED_UPDATES] });
    loop = running.then(
      () => reject(new Error('Long polling ended before it started.')),
      async (error: unknown) => {
        if (signal?.aborted) return reject(signal.reason);
        stopped = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
        reject(error);
        stopped = (await describeBotApiFailure(error, { ...target, method: 'getUpdates' })).cause;
        logEvent(ctx, 'error', 'bot', `long polling stopped: ${stopped}; the bot takes no more updates until it is restarted`);
      },
    );
  }).finally(() => signal?.removeEventListener('abort', stopStarting));
  return {
    health() {
      if (stopped !== null) return `long polling stopped: ${stopped}`;
      if (failing && failing.count >= FAILING_AFTER) {
        return `long polling fails since ${failing.since.toISOString()} (${failing.count} tries): ${failing.cause}`;
      }
      return 'ok';
    },
    async stop() {
      if (bot.isRunning()) {
        await bot
          .stop()
          .catch((error: unknown) =>
            logBotFailure(ctx, 'warn', 'could not confirm the last update to the Bot API (it may come again at the next start)', error),
          );
      }
      await loop;
    },
  };
}
