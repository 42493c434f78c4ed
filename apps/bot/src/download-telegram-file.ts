import { createReadStream } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Readable } from 'node:stream';
import { GrammyError, type Api } from 'grammy';
import {
  AppError,
  createOutboundAgent,
  createOutboundFetch,
  HttpStatusError,
  isAppError,
  mediaTooLargeError,
  retryHttpCall,
  writeLimitedFile,
} from '@transcribe/core';
import type { OutboundFetch } from '@transcribe/core';
import type { BotSettings } from './bot-context.ts';
import { TELEGRAM_FILE_PARAM } from './reply-for-error.ts';

export interface TelegramDownload {
  fileId: string;
  /** Size Telegram declared in the message, bytes, when known. */
  declaredBytes: number | undefined;
  /** Where to write the file. */
  destPath: string;
  signal?: AbortSignal;
}

/** Retries of a failed file download (network failures, 408, 429, 5xx): 0.5 s, then 1 s. */
const RETRIES = 2;

/**
 * Fetches a chat file through the Bot API: `getFile`, then the bytes from
 * `{apiRoot}/file/bot{token}/{file_path}` (or, from a local Bot API server started with `--local`,
 * straight from the absolute `file_path` on disk). Sizes are checked before and while downloading
 * against `settings.maxFileBytes` (20 MB through api.telegram.org, up to 2 GB with a local server,
 * never over the service limit). The bytes come through the service's outbound HTTP client (Node's
 * own, which survives a server that closes right after the body) and its one retry policy:
 * network failures, a body cut short, 408, 429 and 5xx are tried 3 times in all (0.5 s, then 1 s
 * between); the whole
 * download has `settings.downloadTimeoutMs`.
 * @returns bytes written.
 * @throws AppError `media_too_large`; `upstream_refused` / `upstream_unreachable` with param
 *   `telegram_file`; the signal's reason when `signal` aborts.
 */
export async function downloadTelegramFile(api: Api, settings: BotSettings, download: TelegramDownload): Promise<number> {
  const maxBytes = settings.maxFileBytes;
  const declared = download.declaredBytes;
  if (declared !== undefined && declared > maxBytes) throw mediaTooLargeError(maxBytes, declared);
  const timeout = AbortSignal.timeout(settings.downloadTimeoutMs);
  const signal = download.signal ? AbortSignal.any([download.signal, timeout]) : timeout;
  try {
    const file = await getFile(api, download.fileId, maxBytes, signal);
    if (file.file_size !== undefined && file.file_size > maxBytes) throw mediaTooLargeError(maxBytes, file.file_size);
    if (!file.file_path) throw refused('Telegram gave no path for the file.');
    if (isAbsolute(file.file_path)) {
      return await writeLimitedFile(createReadStream(file.file_path), download.destPath, { maxBytes, signal });
    }
    const url = `${settings.apiRoot}/file/bot${settings.token}/${encodeURI(file.file_path)}`;
    const agent = createOutboundAgent(); // the Bot API server is the operator's: no address policy
    try {
      return await downloadWithRetry(createOutboundFetch(agent), url, download.destPath, maxBytes, signal);
    } finally {
      agent.destroy();
    }
  } catch (error) {
    if (download.signal?.aborted) throw download.signal.reason;
    if (isAppError(error)) throw error;
    const message = 'The file could not be downloaded from Telegram in time.';
    throw new AppError('upstream_unreachable', message, { param: TELEGRAM_FILE_PARAM, cause: error });
  }
}

async function getFile(api: Api, fileId: string, maxBytes: number, signal: AbortSignal) {
  try {
    // grammY types its signal with the abort-controller polyfill; the native signal works at runtime.
    return await api.getFile(fileId, signal as Parameters<Api['getFile']>[1]);
  } catch (error) {
    if (error instanceof GrammyError && /too big/i.test(error.description)) throw mediaTooLargeError(maxBytes);
    if (error instanceof GrammyError) throw refused(`Telegram refused the file: ${error.description}`, error);
    throw error;
  }
}

/**
 * Writes the file's bytes to `destPath`, the whole download (answer and body) retried as one
 * attempt, so a body cut short is fetched again. @returns bytes written.
 */
async function downloadWithRetry(
  fetch: OutboundFetch,
  url: string,
  destPath: string,
  maxBytes: number,
  signal: AbortSignal,
): Promise<number> {
  try {
    return await retryHttpCall(
      async () => {
        const response = await fetch(url, { signal });
        if (!response.ok) {
          await response.body?.cancel();
          throw new HttpStatusError(response.status, response.statusText, response.headers);
        }
        if (!response.body) throw refused('Telegram sent no file body.');
        return await writeLimitedFile(Readable.fromWeb(response.body as never), destPath, { maxBytes, signal });
      },
      { retries: RETRIES, baseDelayMs: 500, maxRetryAfterMs: 10_000, signal },
    );
  } catch (error) {
    if (error instanceof HttpStatusError) throw refused(`The Bot API server answered ${error.status} to the file download.`, error);
    throw error;
  }
}

function refused(message: string, cause?: unknown): AppError {
  return new AppError('upstream_refused', message, { param: TELEGRAM_FILE_PARAM, cause });
}
