import { createReadStream } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { GrammyError, type Api } from 'grammy';
import { AppError, isAppError, mediaTooLargeError, writeLimitedFile } from '@transcribe/core';
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

const ATTEMPTS = 3;

/**
 * Fetches a chat file through the Bot API: `getFile`, then the bytes from
 * `{apiRoot}/file/bot{token}/{file_path}` (or, from a local Bot API server started with `--local`,
 * straight from the absolute `file_path` on disk). Sizes are checked before and while downloading
 * against `settings.maxFileBytes` (20 MB through api.telegram.org, up to 2 GB with a local server,
 * never over the service limit). Network failures and 5xx answers are retried up to 3 times with
 * backoff; the whole download has `settings.downloadTimeoutMs`.
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
    const response = await fetchWithRetry(url, signal);
    if (!response.body) throw refused('Telegram sent no file body.');
    return await writeLimitedFile(Readable.fromWeb(response.body as never), download.destPath, { maxBytes, signal });
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

async function fetchWithRetry(url: string, signal: AbortSignal): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    let response: Response | null = null;
    try {
      response = await fetch(url, { signal });
    } catch (error) {
      if (signal.aborted || attempt >= ATTEMPTS) throw error;
    }
    if (response?.ok) return response;
    if (response && (response.status < 500 || attempt >= ATTEMPTS)) {
      await response.body?.cancel();
      throw refused(`The Bot API server answered ${response.status} to the file download.`);
    }
    await response?.body?.cancel();
    await sleep(500 * 2 ** (attempt - 1), undefined, { signal });
  }
}

function refused(message: string, cause?: unknown): AppError {
  return new AppError('upstream_refused', message, { param: TELEGRAM_FILE_PARAM, cause });
}
