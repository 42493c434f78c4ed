import { createHash } from 'node:crypto';
import express, { type Router } from 'express';
import { Bot, GrammyError, webhookCallback } from 'grammy';
import { MAX_KEY_REISSUE_GRACE_SECONDS, type LlmClientConfig, type ServiceContext } from '@transcribe/core';
import type { BotContext, BotDeps, BotSettings } from './bot-context.ts';
import { BOT_COMMANDS } from './handle-commands.ts';
import { installHandlers } from './install-handlers.ts';
import { selectPostProcessRunner } from './post-process-runner.ts';
import { retryApiCalls } from './retry-api-calls.ts';
import { createJobTracker } from './track-jobs.ts';

/** Bots may download at most 20 MB through api.telegram.org (Bot API `getFile`). */
export const CLOUD_DOWNLOAD_LIMIT_BYTES = 20 * 1024 * 1024;
/** A local Bot API server lifts the download limit; 2 GB is Telegram's file size limit. */
export const LOCAL_DOWNLOAD_LIMIT_BYTES = 2000 * 1024 * 1024;
const DEFAULT_API_ROOT = 'https://api.telegram.org';
const ALLOWED_UPDATES = ['message', 'callback_query'] as const;

export interface StartBotOptions {
  /** TELEGRAM_BOT_TOKEN. */
  token: string;
  /** TELEGRAM_API_ROOT: a local Bot API server (lifts the 20 MB limit); default api.telegram.org. */
  apiRoot?: string;
  /** BOT_WEBHOOK_URL: public HTTPS address Telegram posts updates to; long polling when absent. */
  webhookUrl?: string;
  /** BOT_WEBHOOK_SECRET (1–256 of A–Z a–z 0–9 _ -); derived from the token when absent. */
  webhookSecret?: string;
  /** Client base of the HTTP API shown with new keys, e.g. `https://host/v1/replicate`. */
  publicApiBaseUrl: string;
  /** KEY_REISSUE_GRACE_SECONDS: how long a reissued key keeps working, 0..300 (spec 5.3). */
  keyGraceSeconds: number;
  /** Overrides the download limit (bytes); never above the service's `maxMediaBytes`. */
  maxFileBytes?: number;
  /** Transcriptions and post-processing jobs at once; more get a "busy" reply. Default 4. */
  maxConcurrentJobs?: number;
  /** The language model for post-processing buttons (spec 2.4); used only when `ctx.config.llmConfigured`. */
  llm?: LlmClientConfig;
  /** Progress re-read interval, ms (default 1000). */
  progressPollMs?: number;
  /** Give up waiting for a transcription after this long, ms (default 30 minutes). */
  transcriptionTimeoutMs?: number;
  /** Time for one file download from the Bot API server, ms (default the service's download timeout). */
  downloadTimeoutMs?: number;
}

export interface RunningBot {
  /** The bot's @username from getMe. */
  username: string;
  /** Webhook mode: express router taking Telegram's POSTs at `webhookPath` (mount with `app.use`). */
  webhookHandler?: Router;
  webhookPath?: string;
  /** Stops taking updates, ends running jobs (they tell their chats to resend) and waits for them. */
  stop(): Promise<void>;
}

/**
 * Starts the Telegram bot on the service's core (issue 8): long polling by default, or webhook
 * mode when `webhookUrl` is set (setWebhook with a secret token; the returned router checks
 * Telegram's `X-Telegram-Bot-Api-Secret-Token` header). Registers the command list.
 * @throws Error when the token is refused, the grace period is over 5 minutes or the secret is malformed.
 */
export async function startBot(ctx: ServiceContext, options: StartBotOptions): Promise<RunningBot> {
  const settings = resolveSettings(ctx, options);
  const secret = options.webhookUrl ? webhookSecret(options) : null;
  const bot = new Bot<BotContext>(options.token, { client: { apiRoot: settings.apiRoot, timeoutSeconds: 60 } });
  bot.api.config.use(retryApiCalls());
  const jobs = createJobTracker(options.maxConcurrentJobs ?? 4, (error) => console.error('[bot] job failed:', error));
  const deps: BotDeps = { service: ctx, api: bot.api, settings, jobs, postProcess: selectPostProcessRunner(ctx, options.llm) };
  installHandlers(bot, deps);
  await initBot(bot);
  await bot.api.setMyCommands(BOT_COMMANDS).catch((error) => console.warn('[bot] setMyCommands failed:', (error as Error).message));
  const username = bot.botInfo.username;
  if (options.webhookUrl && secret) {
    const webhook = await startWebhook(bot, options.webhookUrl, secret);
    return { username, ...webhook, stop: () => jobs.stopAll() };
  }
  const stopPolling = await startPolling(bot);
  return {
    username,
    async stop() {
      await stopPolling();
      await jobs.stopAll();
    },
  };
}

function resolveSettings(ctx: ServiceContext, options: StartBotOptions): BotSettings {
  if (!Number.isInteger(options.keyGraceSeconds) || options.keyGraceSeconds < 0 || options.keyGraceSeconds > MAX_KEY_REISSUE_GRACE_SECONDS) {
    throw new Error(`The key reissue grace period must be 0..${MAX_KEY_REISSUE_GRACE_SECONDS} seconds (spec 5.3); got ${options.keyGraceSeconds}.`);
  }
  const localApiServer = Boolean(options.apiRoot);
  const telegramLimit = options.maxFileBytes ?? (localApiServer ? LOCAL_DOWNLOAD_LIMIT_BYTES : CLOUD_DOWNLOAD_LIMIT_BYTES);
  return {
    token: options.token,
    apiRoot: (options.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, ''),
    localApiServer,
    publicApiBaseUrl: options.publicApiBaseUrl,
    keyGraceSeconds: options.keyGraceSeconds,
    maxFileBytes: Math.min(telegramLimit, ctx.config.maxMediaBytes),
    progressPollMs: options.progressPollMs ?? 1000,
    transcriptionTimeoutMs: options.transcriptionTimeoutMs ?? 30 * 60 * 1000,
    downloadTimeoutMs: options.downloadTimeoutMs ?? ctx.config.downloadTimeoutMs,
  };
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

/** Starts long polling; resolves once polling runs, to a function that stops it. */
async function startPolling(bot: Bot<BotContext>): Promise<() => Promise<void>> {
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

async function startWebhook(bot: Bot<BotContext>, url: string, secret: string): Promise<{ webhookHandler: Router; webhookPath: string }> {
  await bot.api.setWebhook(url, { secret_token: secret, allowed_updates: [...ALLOWED_UPDATES] });
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
function webhookSecret(options: StartBotOptions): string {
  const secret = options.webhookSecret ?? createHash('sha256').update(`webhook:${options.token}`).digest('base64url');
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(secret)) {
    throw new Error('BOT_WEBHOOK_SECRET must be 1-256 characters of A-Z, a-z, 0-9, _ and -.');
  }
  return secret;
}
