import type { Bot } from 'grammy';
import type { ServiceContext } from '@transcribe/core';
import type { BotContext } from './bot-context.ts';
import { logBotFailure } from './log-bot-failure.ts';

/** Updates the bot asks Telegram for. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/**
 * Starts long polling; resolves once polling runs, to a function that stops it. A polling loop that
 * ends with an error is logged through `ctx`'s structured logger (component `bot`).
 * @throws the error that stopped polling before it started (e.g. the token was refused).
 */
export async function startPolling(ctx: Pick<ServiceContext, 'logger'>, bot: Bot<BotContext>): Promise<() => Promise<void>> {
  let loop: Promise<void> = Promise.resolve();
  await new Promise<void>((resolve, reject) => {
    const running = bot.start({ onStart: () => resolve(), allowed_updates: [...ALLOWED_UPDATES] });
    loop = running.then(
      () => reject(new Error('Long polling ended before it started.')),
      (error: unknown) => {
        logBotFailure(ctx, 'error', 'long polling stopped', error);
        reject(error);
      },
    );
  });
  return async () => {
    if (bot.isRunning()) await bot.stop();
    await loop;
  };
}
