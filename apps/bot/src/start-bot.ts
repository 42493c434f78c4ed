import type { Router } from 'express';
import { autoRetry } from '@grammyjs/auto-retry';
import { Api, Bot } from 'grammy';
import { listBotUserLocales, logEvent, saveBotUserLocale, type ServiceContext } from '@transcribe/core';
import { abortApiCalls } from './abort-api-calls.ts';
import { DEFAULT_STOP_TIMEOUT_MS, type BotContext, type BotDeps, type BotSettings, type StartBotOptions } from './bot-context.ts';
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
import { BotApiCallError, retryBotApiCall } from './retry-bot-api-call.ts';
import { startWebhook, webhookSecret } from './start-webhook.ts';

export type { StartBotOptions } from './bot-context.ts';
export type { FailedBotApiTry } from './retry-bot-api-call.ts';

export interface RunningBot {
  /** The bot's @username from getMe. */
  username: string;
  /** Webhook mode: express router taking Telegram's POSTs at `webhookPath` (mount with `app.use`). */
  webhookHandler?: Router;
  webhookPath?: string;
  /** `ok`, or what is wrong with the running bot (long polling failing or stopped, start-polling.ts); for `/ready`. */
  health(): string;
  /**
   * Stops taking updates and following recordings (their deliveries stay stored: the next start
   * resumes them) and waits for that; Bot API calls still open after `stopTimeoutMs` are aborted.
   */
  stop(): Promise<void>;
}

/** A start that failed: the Bot API could not be reached (or refused the token), or the start failed otherwise. */
export class BotStartError extends Error {
  constructor(
    message: string,
    /** False when another start cannot help without a change of configuration (the token was refused: 401). */
    readonly retryable: boolean,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'BotStartError';
  }
}

/** Tries of the Bot API at start-up by default (BOT_START_ATTEMPTS): 1 s, 2 s, 4 s, 8 s, 16 s apart, about half a minute. */
export const DEFAULT_START_ATTEMPTS = 6;
export { DEFAULT_STOP_TIMEOUT_MS } from './bot-context.ts';
export { botOptionsFromEnv } from './bot-options-from-env.ts';

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
 *
 * Start-up reaches the Bot API with bounded tries (retry-bot-api-call.ts): `getMe` (and `setWebhook`
 * in webhook mode) up to `startAttempts` times (default 6; Infinity: until it works), 1 s, 2 s, 4 s, …
 * apart up to `startMaxDelayMs` (default 30 s), each try cut after 10 s. Every failed try is one log
 * line (warn, component `bot`) naming its cause: connection refused at host:port, DNS failure,
 * timeout, HTTP 404 from the API root (is TELEGRAM_API_ROOT right?), 401 (the token is wrong, not
 * retried), … and goes to `onFailedTry`. `signal` ends the start at any point, a hanging call too.
 * @throws BotStartError when the Bot API cannot be reached within the tries or refuses the token
 *   (`retryable` false), naming the last cause; Error when the grace period is over 5 minutes or
 *   the secret is malformed; the signal's reason when `signal` aborts.
 */
export async function startBot(ctx: ServiceContext, options: StartBotOptions): Promise<RunningBot> {
  const settings = resolveBotSettings(ctx, options);
  const secret = options.webhookUrl ? webhookSecret(options) : null;
  // Every Bot API call of this bot ends when `apiStop` aborts: at a stop's deadline, or when the start is called off.
  const apiStop = new AbortController();
  const callOff = () => apiStop.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', callOff, { once: true });
  const client = { apiRoot: settings.apiRoot, timeoutSeconds: 60 };
  const bot = new Bot<BotContext>(options.token, { client });
  bot.api.config.use(autoRetry(API_RETRY));
  bot.api.config.use(abortApiCalls(apiStop.signal)); // after the retries: it cuts their waits too (abort-api-calls.ts)
  const jobs = createJobTracker((error) => logBotFailure(ctx, 'error', 'job failed', error));
  const startUp = startUpCaller(ctx, settings, options);
  try {
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
    // The start-up calls go through an Api of their own: no auto-retry under the bounded tries.
    const startUpApi = new Api(options.token, client);
    bot.botInfo = await startUp('getMe', (signal) => startUpApi.getMe(signal as GrammySignal));
    // The command list in English for everyone, and in Russian for people whose Telegram is in Russian.
    for (const locale of BOT_LOCALES) {
      const scope = locale === 'en' ? {} : { language_code: locale };
      await bot.api
        .setMyCommands(botCommands(translatorFor(deps.i18n, locale)), scope)
        .catch((error: unknown) => logBotFailure(ctx, 'warn', 'setMyCommands failed', error));
      options.signal?.throwIfAborted();
    }
    await resumeBotDeliveries(deps);
    const username = bot.botInfo.username;
    const stopWithin = async (stopping: () => Promise<void>) => {
      const deadline = setTimeout(() => apiStop.abort(new Error('The bot is stopping.')), options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS);
      try {
        await stopping();
      } finally {
        clearTimeout(deadline);
        apiStop.abort(new Error('The bot stopped.'));
      }
    };
    if (options.webhookUrl && secret) {
      const webhook = await startWebhook(bot, options.webhookUrl, secret, (call) =>
        startUp('setWebhook', (signal) => call(startUpApi, signal)),
      );
      return { username, ...webhook, health: () => 'ok', stop: () => stopWithin(() => jobs.stopAll()) };
    }
    const polling = await startPolling(ctx, bot, settings, options.signal);
    return {
      username,
      health: () => polling.health(),
      stop: () =>
        stopWithin(async () => {
          await polling.stop();
          await jobs.stopAll();
        }),
    };
  } catch (error) {
    apiStop.abort(options.signal?.reason);
    await jobs.stopAll();
    if (options.signal?.aborted) throw options.signal.reason;
    throw error;
  } finally {
    options.signal?.removeEventListener('abort', callOff);
  }
}

/** grammY types its `AbortSignal` parameters with the abort-controller polyfill; the native signal works at runtime. */
type GrammySignal = Parameters<Api['getMe']>[0];

/**
 * The bounded-tries caller of the start-up Bot API calls: each failed try logged (warn) and passed
 * to `options.onFailedTry`; the final failure turned into a BotStartError naming its cause.
 */
function startUpCaller(ctx: ServiceContext, settings: BotSettings, options: StartBotOptions) {
  const attempts = options.startAttempts ?? DEFAULT_START_ATTEMPTS;
  return async <T>(method: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    try {
      return await retryBotApiCall(
        call,
        { apiRoot: settings.apiRoot, token: settings.token, method },
        {
          attempts,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.startMaxDelayMs !== undefined ? { maxDelayMs: options.startMaxDelayMs } : {}),
          onFailedTry(failed) {
            const of = Number.isFinite(failed.attempts) ? ` of ${failed.attempts}` : '';
            const next =
              failed.nextDelayMs === null
                ? failed.failure.retryable
                  ? '; no tries left'
                  : '; not retried'
                : `; next try in ${formatSeconds(failed.nextDelayMs)}`;
            logEvent(ctx, 'warn', 'bot', `Bot API ${method}, try ${failed.tryNumber}${of} failed: ${failed.failure.cause}${next}`, {
              bot_api_root: settings.apiRoot,
              try: failed.tryNumber,
            });
            options.onFailedTry?.(failed);
          },
        },
      );
    } catch (error) {
      if (!(error instanceof BotApiCallError)) throw error;
      const { failure, tries } = error;
      const times = tries === 1 ? 'once' : `${tries} times`;
      throw new BotStartError(
        `the Bot API call ${method} to ${settings.apiRoot} failed ${times}; last: ${failure.cause}`,
        failure.retryable,
        { cause: error },
      );
    }
  };
}

/** `2 s`, `1.5 s`, `5 min`. */
function formatSeconds(ms: number): string {
  return ms >= 120_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 100) / 10} s`;
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
