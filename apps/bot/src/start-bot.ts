import type { Router } from 'express';
import { autoRetry } from '@grammyjs/auto-retry';
import { Bot, GrammyError } from 'grammy';
import { listBotUserLocales, saveBotUserLocale, type ServiceContext } from '@transcribe/core';
import type { BotContext, BotDeps, StartBotOptions } from './bot-context.ts';
import { BOT_LOCALES, createBotI18n, createLocaleChoices, MAX_CHOICES, translatorFor, type LocaleChoices } from './bot-i18n.ts';
import { botCommands } from './handle-commands.ts';
import { installHandlers } from './install-handlers.ts';
import { logBotFailure } from './log-bot-failure.ts';
import { selectPostProcessRunner } from './post-process-runner.ts';
import { createJobTracker } from './track-jobs.ts';
import { createDownloadTracker } from './track-downloads.ts';
import { resolveBotSettings } from './resolve-bot-settings.ts';
import { resumeBotDeliveries } from './resume-bot-deliveries.ts';
import { startPolling } from './start-polling.ts';
import { startWebhook, webhookSecret } from './start-webhook.ts';

export type { StartBotOptions } from './bot-context.ts';

export interface RunningBot {
  /** The bot's @username from getMe. */
  username: string;
  /** Webhook mode: express router taking Telegram's POSTs at `webhookPath` (mount with `app.use`). */
  webhookHandler?: Router;
  webhookPath?: string;
  /** Stops taking updates and following recordings (their deliveries stay stored: the next start resumes them) and waits for that. */
  stop(): Promise<void>;
}

/**
 * Retries of Bot API calls (@grammyjs/auto-retry): an answer 429 is retried after its
 * `retry_after` when that is at most 30 s, a 5xx after 3 s, 6 s, 12 s; at most 3 retries, so an
 * outbound call is never retried without bound. A call that cannot reach the Bot API at all
 * (HttpError) is not retried here: the plugin would retry it without limit; grammY's polling loop
 * retries `getUpdates` itself, and a job whose reply fails ends with that error (logged).
 */
const API_RETRY = { maxRetryAttempts: 3, maxDelaySeconds: 30, rethrowHttpErrors: true };

/**
 * Starts the Telegram bot on the service's core: long polling by default, or webhook
 * mode when `webhookUrl` is set (setWebhook with a secret token; the returned router checks
 * Telegram's `X-Telegram-Bot-Api-Secret-Token` header). Registers the command list and resumes the
 * recordings whose results were not yet shown (resume-bot-deliveries.ts).
 * @throws Error when the token is refused, the grace period is over 5 minutes or the secret is malformed.
 */
export async function startBot(ctx: ServiceContext, options: StartBotOptions): Promise<RunningBot> {
  const settings = resolveBotSettings(ctx, options);
  const secret = options.webhookUrl ? webhookSecret(options) : null;
  const bot = new Bot<BotContext>(options.token, { client: { apiRoot: settings.apiRoot, timeoutSeconds: 60 } });
  bot.api.config.use(autoRetry(API_RETRY));
  const jobs = createJobTracker((error) => logBotFailure(ctx, 'error', 'job failed', error));
  const deps: BotDeps = {
    service: ctx,
    api: bot.api,
    settings,
    jobs,
    downloads: createDownloadTracker(),
    postProcess: selectPostProcessRunner(ctx, options.llm),
    i18n: createBotI18n(),
    locales: await loadLocaleChoices(ctx),
  };
  installHandlers(bot, deps);
  await initBot(bot);
  // The command list in English for everyone, and in Russian for people whose Telegram is in Russian.
  for (const locale of BOT_LOCALES) {
    const scope = locale === 'en' ? {} : { language_code: locale };
    await bot.api
      .setMyCommands(botCommands(translatorFor(deps.i18n, locale)), scope)
      .catch((error: unknown) => logBotFailure(ctx, 'warn', 'setMyCommands failed', error));
  }
  await resumeBotDeliveries(deps);
  const username = bot.botInfo.username;
  if (options.webhookUrl && secret) {
    const webhook = await startWebhook(bot, options.webhookUrl, secret);
    return { username, ...webhook, stop: () => jobs.stopAll() };
  }
  const stopPolling = await startPolling(ctx, bot);
  return {
    username,
    async stop() {
      await stopPolling();
      await jobs.stopAll();
    },
  };
}

/** The stored /language choices, and a store that saves each new one (a failed save is logged; the choice holds until restart). */
async function loadLocaleChoices(ctx: ServiceContext): Promise<LocaleChoices> {
  const { db } = ctx.database;
  const stored = await listBotUserLocales(db, MAX_CHOICES);
  return createLocaleChoices(stored, (userId, locale) => {
    saveBotUserLocale(db, String(userId), locale).catch((error: unknown) =>
      logBotFailure(ctx, 'warn', 'saving a /language choice failed', error),
    );
  });
}

async function initBot(bot: Bot<BotContext>): Promise<void> {
  try {
    await bot.init();
  } catch (error) {
    if (error instanceof GrammyError && error.error_code === 401) {
      throw new Error('The Bot API refused TELEGRAM_BOT_TOKEN (401 Unauthorized): check the token from @BotFather.');
    }
    throw new Error(`The bot could not reach the Bot API: ${(error as Error).message}`);
  }
}
