import { MAX_KEY_REISSUE_GRACE_SECONDS, type ServiceContext } from '@transcribe/core';
import type { BotSettings, StartBotOptions } from './bot-context.ts';

/** Bots may download at most 20 MB through api.telegram.org (Bot API `getFile`). */
export const CLOUD_DOWNLOAD_LIMIT_BYTES = 20 * 1024 * 1024;
/** A local Bot API server lifts the download limit; 2 GB is Telegram's file size limit. */
export const LOCAL_DOWNLOAD_LIMIT_BYTES = 2000 * 1024 * 1024;
const DEFAULT_API_ROOT = 'https://api.telegram.org';

/**
 * The bot's settings with defaults applied. The download limit is Telegram's (20 MB, or 2 GB with
 * a local Bot API server) or `maxFileBytes`, never above the service's `maxMediaBytes`.
 * @throws Error when the key grace period is not 0..300 seconds (spec 5.3).
 */
export function resolveBotSettings(ctx: ServiceContext, options: StartBotOptions): BotSettings {
  const grace = options.keyGraceSeconds;
  if (!Number.isInteger(grace) || grace < 0 || grace > MAX_KEY_REISSUE_GRACE_SECONDS) {
    throw new Error(`The key reissue grace period must be 0..${MAX_KEY_REISSUE_GRACE_SECONDS} seconds (spec 5.3); got ${grace}.`);
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
