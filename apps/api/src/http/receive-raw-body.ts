import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'express';
import { AppError, uploadTooLargeError, writeUploadFile } from '@transcribe/core';

/** A file received in a request and saved under DATA_DIR (spec 4.1). */
export interface ReceivedFile {
  path: string;
  /** Size in bytes. */
  bytes: number;
  /** Hex SHA-256 of the content. */
  sha256: string;
  /** File name given by the client, or `upload`. */
  name: string;
  contentType: string;
}

/**
 * Streams a raw request body (`application/octet-stream` create, spec 4.1) to a new file in `dir`,
 * never holding more than one chunk in memory. A declared Content-Length over the limit is refused
 * before anything is read. The name comes from `Content-Disposition: …; filename="…"` when sent.
 * @param maxBytes limit in bytes (spec 8: 300 MiB).
 * @throws AppError `payload_too_large` (413) over the limit, the partial file removed;
 *   `invalid_input` (422) for an empty body.
 */
export async function receiveRawBody(req: Request, options: { dir: string; maxBytes: number }): Promise<ReceivedFile> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  if (declared > options.maxBytes) throw uploadTooLargeError(options.maxBytes);
  await mkdir(options.dir, { recursive: true });
  const path = join(options.dir, `upload-${randomBytes(9).toString('hex')}`);
  const { bytes, sha256 } = await writeUploadFile(req.iterator({ destroyOnReturn: false }), path, { maxBytes: options.maxBytes }).catch(
    (error: unknown) => {
      throw error instanceof AppError || !clientWentAway(req) ? error : interruptedUploadError(error);
    },
  );
  if (bytes === 0) {
    await rm(path, { force: true });
    throw new AppError('invalid_input', 'The request body is empty: send the recording itself as the body.', { param: 'audio' });
  }
  return { path, bytes, sha256, name: fileNameOf(req.get('content-disposition')), contentType: 'application/octet-stream' };
}

/**
 * The error for a body that ended early (the client went away or the connection broke): a client
 * mistake, not a server fault, so it is not logged as one.
 */
export function interruptedUploadError(cause: unknown): AppError {
  return new AppError('invalid_input', 'The upload was interrupted before the whole body arrived; send it again.', {
    param: 'audio',
    cause,
  });
}

/** True when the request ended early on the client's side (aborted or its connection closed). */
export function clientWentAway(req: Request): boolean {
  return req.readableAborted || req.destroyed;
}

function fileNameOf(disposition: string | undefined): string {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]{1,200})"?/i.exec(disposition ?? '');
  const name = match?.[1] ? decodeURIComponentSafe(match[1]).replace(/^.*[\\/]/, '') : '';
  return name || 'upload';
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
