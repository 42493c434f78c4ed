import { AppError, formatMebibytes, isAppError, type AppErrorCode, type PredictionRow } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';

/** Values some replies mention. */
export interface ReplyLimits {
  /** Largest file the bot takes, bytes. */
  maxFileBytes: number;
  /** True with a local Bot API server (TELEGRAM_API_ROOT); false: api.telegram.org and its 20 MB limit for bots. */
  localApiServer?: boolean;
}

/** AppError `param` of failures while fetching the file from Telegram (download-telegram-file.ts). */
export const TELEGRAM_FILE_PARAM = 'telegram_file';
/** AppError `param` of failures of the language model (post-processing). */
export const LANGUAGE_MODEL_PARAM = 'language_model';

type ReplyMaker = (error: AppError, limits: ReplyLimits, t: Translate) => string;

/** Telegram's download limit for bots through api.telegram.org, bytes (a local Bot API server lifts it to 2 GB). */
const TELEGRAM_BOT_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/**
 * A file over the limit. When the limit is Telegram's own (bots may download only 20 MB through
 * api.telegram.org), shrinking the file is not the only way, and people should hear the others:
 * the web portal takes uploads, the HTTP API takes a link, and the operator can run a local Bot
 * API server, which raises the limit to 2 GB.
 */
const tooLarge: ReplyMaker = (_error, limits, t) => {
  const limit = formatMebibytes(limits.maxFileBytes);
  const telegramsOwn = limits.localApiServer === false && limits.maxFileBytes <= TELEGRAM_BOT_DOWNLOAD_LIMIT;
  return t(telegramsOwn ? 'error-too-large-for-telegram' : 'error-too-large', { limit });
};

/** Who failed, as the catalogs' `who` selector: `telegram`, `llm` or `other`. */
const fromWhom = (error: AppError): string =>
  error.param === TELEGRAM_FILE_PARAM ? 'telegram' : error.param === LANGUAGE_MODEL_PARAM ? 'llm' : 'other';

/** A reply that is one catalog text. */
const say =
  (key: string): ReplyMaker =>
  (_error, _limits, t) =>
    t(key);

/** The one place where error codes become chat replies (like apps/api/src/http/map-error.ts for HTTP). */
const REPLY_BY_CODE: Record<AppErrorCode, ReplyMaker> = {
  // The message of invalid_input is written for people (the input rules), so it is shown as it is.
  invalid_input: (error, _limits, t) => t('error-invalid-input', { detail: error.message }),
  unauthenticated: say('error-unauthenticated'),
  not_found: say('error-not-found'),
  link_not_valid: say('error-link-not-valid'),
  payload_too_large: tooLarge,
  media_too_large: tooLarge,
  unsupported_media_type: say('error-unsupported-media'),
  rate_limited: say('error-rate-limited'),
  media_unreadable: say('error-media-unreadable'),
  media_no_audio: say('error-media-no-audio'),
  upstream_refused: (error, _limits, t) => t('error-upstream-refused', { who: fromWhom(error) }),
  upstream_unreachable: (error, _limits, t) => t('error-upstream-unreachable', { who: fromWhom(error) }),
  address_not_allowed: say('error-address-not-allowed'),
  recognition_failed: say('error-recognition-failed'),
  recognition_unreachable: say('error-recognition-unreachable'),
  engine_unavailable: say('error-engine-unavailable'),
  cache_changed: say('error-cache-changed'),
  service_busy: say('error-service-busy'),
  conflict: say('error-internal'), // the bot makes no request that can clash (voice names are the registry API's)
  post_processing_failed: say('error-post-processing-failed'),
  internal: say('error-internal'),
};

/**
 * The plain-words chat reply for any failure, in the reader's language (`t`): an AppError by its
 * code, anything else as an internal error (never with details). Replies that are no error
 * (nothing recognised, still running, restarted, no language model, send a recording) are the
 * catalog texts `error-no-speech`, `error-still-running`, `error-stopped`,
 * `error-no-language-model` and `send-a-recording`.
 */
export function replyForError(error: unknown, limits: ReplyLimits, t: Translate): string {
  const appError = isAppError(error) ? error : new AppError('internal', 'unexpected error', { cause: error });
  return REPLY_BY_CODE[appError.code](appError, limits, t);
}

/** The reply for a prediction that ended `failed`, by its stored error code and text. */
export function replyForFailedPrediction(row: Pick<PredictionRow, 'error' | 'errorCode'>, limits: ReplyLimits, t: Translate): string {
  const known = row.errorCode !== null && Object.hasOwn(REPLY_BY_CODE, row.errorCode);
  const code = known ? (row.errorCode as AppErrorCode) : 'internal';
  return replyForError(new AppError(code, row.error ?? 'failed'), limits, t);
}
