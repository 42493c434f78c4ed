import type { Bot } from 'grammy';
import type { BotContext } from './bot-context.ts';

/** Updates the bot asks Telegram for. */
export const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

/** Starts long polling; resolves once polling runs, to a function that stops it. */
export async function startPolling(bot: Bot<BotContext>): Promise<() => Promise<void>> {
  let loop: Promise<void> = Promise.resolve();
  await new Promise<void>((resolve, reject) => {
    const running = bot.start({ onStart: () => resolve(), allowed_updates: [...ALLOWED_UPDATES] });
    loop = running.then(
      () => reject(new Error('Long polling ended before it started.')),
      (error: unknown) => {
        console.error('[bot] long polling stopped:', error);
        reject(error);
      },
    );
  });
  return async () => {
    if (bot.isRunning()) await bot.stop();
    await loop;
  };
}
