import type { ConversationFlavor } from '@grammyjs/conversations';
import type { Api, Context } from 'grammy';
import type { ServiceContext } from '@transcribe/core';
import type { JobTracker } from './track-jobs.ts';
import type { PostProcessRunner } from './post-process-runner.ts';

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
  /** Runs post-processing on a transcript; null when no language model is configured. */
  postProcess: PostProcessRunner | null;
}
