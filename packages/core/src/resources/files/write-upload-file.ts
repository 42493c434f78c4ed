import { createWriteStream } from 'node:fs';
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../platform/errors/app-error.ts';
import { formatMebibytes } from '../../pipeline/fetch/write-limited-file.ts';
import { fileClosed } from '../../pipeline/fetch/file-closed.ts';

export interface WrittenUpload {
  /** Bytes written. */
  bytes: number;
  /** Hex SHA-256 of the bytes written. */
  sha256: string;
}

/**
 * The error for an upload body over the limit of spec 8 (HTTP 413), in MB, without paths.
 * @param maxBytes the limit in bytes (MAX_MEDIA_BYTES, 300 MiB by default).
 */
export function uploadTooLargeError(maxBytes: number): AppError {
  return new AppError(
    'payload_too_large',
    `The uploaded file is larger than the ${formatMebibytes(maxBytes)} limit (spec 8). Send a shorter or more compressed recording.`,
    { param: 'audio' },
  );
}

/**
 * Streams an upload (a multipart file part or a raw request body) into `destPath`, one chunk in
 * memory at a time, counting and hashing the bytes. Stops as soon as the count passes `maxBytes`
 * and removes the partial file on any failure. Iterate a request with
 * `req.iterator({ destroyOnReturn: false })` so stopping does not destroy the connection before
 * the 413 answer is sent.
 * @param maxBytes the size limit in bytes (spec 8: 300 MiB).
 * @returns the size in bytes and the SHA-256.
 * @throws AppError `payload_too_large` past `maxBytes`; errors of the source or the file as they are.
 */
export async function writeUploadFile(
  source: AsyncIterable<Uint8Array>,
  destPath: string,
  options: { maxBytes: number },
): Promise<WrittenUpload> {
  const hash = createHash('sha256');
  let bytes = 0;
  async function* countAndHash(): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      bytes += chunk.byteLength;
      if (bytes > options.maxBytes) throw uploadTooLargeError(options.maxBytes);
      hash.update(chunk);
      yield chunk;
    }
  }
  const file = createWriteStream(destPath);
  try {
    await pipeline(countAndHash, file);
  } catch (error) {
    await fileClosed(file); // a file opened after the failure would outlive the rm
    await rm(destPath, { force: true });
    throw error;
  }
  return { bytes, sha256: hash.digest('hex') };
}
