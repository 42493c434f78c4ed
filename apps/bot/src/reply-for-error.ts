import { AppError, formatMebibytes, isAppError, type AppErrorCode, type PredictionRow } from '@transcribe/core';

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

type ReplyMaker = (error: AppError, limits: ReplyLimits) => string;

/** Telegram's download limit for bots through api.telegram.org, bytes (a local Bot API server lifts it to 2 GB). */
const TELEGRAM_BOT_DOWNLOAD_LIMIT = 20 * 1024 * 1024;

/**
 * A file over the limit. When the limit is Telegram's own (bots may download only 20 MB through
 * api.telegram.org), shrinking the file is not the only way, and people should hear the others:
 * the web portal takes uploads, the HTTP API takes a link, and the operator can run a local Bot
 * API server, which raises the limit to 2 GB.
 */
const tooLarge: ReplyMaker = (_error, limits) => {
  const limit = formatMebibytes(limits.maxFileBytes);
  if (limits.localApiServer === false && limits.maxFileBytes <= TELEGRAM_BOT_DOWNLOAD_LIMIT) {
    return [
      `This file is too large for me: Telegram lets bots download files of at most ${limit}. Ways around it:`,
      '• upload it in the web portal (/portal gives you a sign-in link);',
      '• or give the HTTP API a link to the file (/api shows how);',
      '• or ask whoever runs this bot to connect it to a local Bot API server (TELEGRAM_API_ROOT), which raises the limit to 2 GB.',
    ].join('\n');
  }
  return `This file is too large: I can take files up to ${limit}. Send a shorter or more compressed recording, or upload it in the web portal (/portal).`;
};

const fromWhom = (error: AppError): string =>
  error.param === TELEGRAM_FILE_PARAM ? 'Telegram' : error.param === LANGUAGE_MODEL_PARAM ? 'The language model' : 'The other side';

/** The one place where error codes become chat replies (like apps/api/src/http/map-error.ts for HTTP). */
const REPLY_BY_CODE: Record<AppErrorCode, ReplyMaker> = {
  invalid_input: (error) => `I couldn't start this: ${error.message} You can change your choices with /settings.`,
  unauthenticated: () => 'Your access could not be checked. Send /start and try again.',
  not_found: () => "I can't find that transcript any more. Send the recording again.",
  link_not_valid: () => "That link doesn't work any more. Send the recording again.",
  payload_too_large: tooLarge,
  media_too_large: tooLarge,
  unsupported_media_type: () => "I can't transcribe this kind of file. Send a voice message, a video note, or an audio or video file.",
  rate_limited: () => 'Too many requests at once. Wait a minute and try again.',
  media_unreadable: () => "I couldn't read this file: it isn't audio or video I know, or it is damaged.",
  media_no_audio: () => 'This file has no sound, so there is nothing to transcribe.',
  upstream_refused: (error) => `${fromWhom(error)} refused to hand over what I needed. Try again in a minute.`,
  upstream_unreachable: (error) => `${fromWhom(error)} did not answer in time. Try again in a minute.`,
  address_not_allowed: () => "That address points into a private network, which I'm not allowed to use.",
  recognition_failed: () => 'Speech recognition failed on this recording. Try again; if it keeps failing, tell the operator.',
  recognition_unreachable: () => 'The speech recognition server did not answer. Try again in a few minutes.',
  engine_unavailable: () => 'Speech recognition is not available on this server right now. Try again later.',
  cache_changed: () => 'Another request changed this transcript at the same moment. Send the recording again.',
  service_busy: () => "I'm busy with other recordings right now. Try again in a few minutes.",
  post_processing_failed: () => 'The language model could not do this right now. Try again in a few minutes.',
  internal: () => 'Something went wrong on my side. Try again; if it keeps happening, tell the operator.',
};

/** Reply when recognition found no speech (spec 2.3.6). */
export const NO_SPEECH_REPLY =
  "I couldn't hear any speech in this recording, so there is no transcript. If someone does speak, check the language in /settings.";

/** Reply when a transcription runs longer than the bot waits. */
export const STILL_RUNNING_REPLY = 'This recording is taking longer than expected. Try again later, or send a shorter recording.';

/** Reply when the bot stops (restart, shutdown) while it works on something. */
export const STOPPED_REPLY = 'I was restarted while working on this. Please send it again.';

/** Reply when a post-processing button is pressed but no language model is configured. */
export const NO_LANGUAGE_MODEL_REPLY = 'Summaries, translations and the like need a language model, and none is configured on this server.';

/** Reply to a text message that is not a command. */
export const SEND_A_RECORDING_REPLY =
  'Send me a voice message, a video note, or an audio or video file, and I will transcribe it. /help lists what else I can do.';

/**
 * The plain-words chat reply for any failure: an AppError by its code, anything else as an
 * internal error (never with details).
 */
export function replyForError(error: unknown, limits: ReplyLimits): string {
  const appError = isAppError(error) ? error : new AppError('internal', 'unexpected error', { cause: error });
  return REPLY_BY_CODE[appError.code](appError, limits);
}

/** The reply for a prediction that ended `failed`, by its stored error code and text. */
export function replyForFailedPrediction(row: Pick<PredictionRow, 'error' | 'errorCode'>, limits: ReplyLimits): string {
  const known = row.errorCode !== null && Object.hasOwn(REPLY_BY_CODE, row.errorCode);
  const code = known ? (row.errorCode as AppErrorCode) : 'internal';
  return replyForError(new AppError(code, row.error ?? 'failed'), limits);
}
