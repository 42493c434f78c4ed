import type { ConversationFlavor } from '@grammyjs/conversations';
import type { I18n } from '@grammyjs/i18n';
import type { Api, Context } from 'grammy';
import type { LocaleChoices } from './bot-i18n.ts';
import type { LlmClientConfig, ServiceContext } from '@transcribe/core';
import type { JobTracker } from './track-jobs.ts';
import type { DownloadTracker } from './track-downloads.ts';
import type { PostProcessRunner } from './post-process-runner.ts';
import type { FailedBotApiTry } from './retry-bot-api-call.ts';

/** Context of the bot's outside middleware (commands, menus, media, buttons). */
export type BotContext = ConversationFlavor<Context>;

/** Context inside conversations: a plain Context (conversations v2 keeps the two apart). */
export type ConversationContext = Context;

/** Settings of a running bot after defaults were applied (see StartBotOptions in start-bot.ts). */
export interface BotSettings {
  token: string;
  /** Bot API server root without trailing slash, e.g. `https://api.telegram.org`. */
  apiRoot: string;
  /** True when `apiRoot` is a local Bot API server (set through TELEGRAM_API_ROOT). */
  localApiServer: boolean;
  /** Client base of the HTTP API shown in the how-to, e.g. `https://host/v1/replicate`. */
  publicApiBaseUrl: string;
  /** Seconds a reissued key keeps working (0..300, spec 5.3). */
  keyGraceSeconds: number;
  /** Largest file the bot downloads, bytes (Telegram's limit and the service limit, the smaller). */
  maxFileBytes: number;
  /** How often a running transcription is re-read for progress, ms. */
  progressPollMs: number;
  /** A transcription still running after this long is reported as taking too long, ms. */
  transcriptionTimeoutMs: number;
  /** Time allowed for one download from the Bot API server, ms. */
  downloadTimeoutMs: number;
}

/** Everything the handlers need, built once by startBot. */
export interface BotDeps {
  service: ServiceContext;
  /** The bot's API client (for work that outlives an update). */
  api: Api;
  settings: BotSettings;
  jobs: JobTracker;
  /** Recordings being fetched from Telegram before they are queued (for /cancel). */
  downloads: DownloadTracker;
  /** Runs post-processing on a transcript; null when no language model is configured. */
  postProcess: PostProcessRunner | null;
  /** The message catalogs (English, Russian: bot-i18n.ts). */
  i18n: I18n<Context>;
  /** People's /language choices. */
  locales: LocaleChoices;
}

/** How long a stop waits for the Bot API (grammY's confirmation of the last update, replies in flight) by default, ms. */
export const DEFAULT_STOP_TIMEOUT_MS = 5_000;

/** What startBot (start-bot.ts) takes: the environment variables of the bot, resolved by resolve-bot-settings.ts. */
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
  /** Language model for the post-processing buttons (spec 2.4); default `ctx.config.llm`. */
  llm?: LlmClientConfig;
  /** Progress re-read interval, ms (default 1000). */
  progressPollMs?: number;
  /** Give up waiting for a transcription after this long, ms (default 30 minutes). */
  transcriptionTimeoutMs?: number;
  /** Time for one file download from the Bot API server, ms (default the service's download timeout). */
  downloadTimeoutMs?: number;
  /** BOT_START_ATTEMPTS: tries of the Bot API at start-up (getMe, setWebhook) before the start fails (default 6); Infinity: until it works. */
  startAttempts?: number;
  /** Longest wait between start-up tries, ms (default 30 s). */
  startMaxDelayMs?: number;
  /** Calls the start off at any point (a hanging or retrying call too): startBot then rejects with its reason. */
  signal?: AbortSignal;
  /** How long a stop waits for the Bot API (the confirmation of the last update, replies in flight) before cutting its calls, ms (default 5000). */
  stopTimeoutMs?: number;
  /** Told of every failed start-up try (after its log line), e.g. to report it on `/ready`. */
  onFailedTry?: (failedTry: FailedBotApiTry) => void;
}
