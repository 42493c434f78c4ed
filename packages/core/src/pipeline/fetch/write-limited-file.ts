import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../platform/errors/app-error.ts';
import { fileClosed } from './file-closed.ts';

/**
 * Streams `source` into `destPath` (created or truncated), counting bytes and stopping as soon as
 * the count passes `maxBytes`. Memory use is one chunk at a time; backpressure comes from pipeline.
 * Does not remove the file on failure: the caller owns cleanup.
 * @param maxBytes size limit in bytes (the limit of spec section 8 applies to embedded and linked media too).
 * @returns the number of bytes written.
 * @throws AppError `media_too_large` (param `audio`) past `maxBytes`; errors of `source` or of the file as they are;
 *   the signal's reason when `signal` aborts.
 */
export async function writeLimitedFile(
  source: AsyncIterable<Uint8Array> | Iterable<Uint8Array>,
  destPath: string,
  options: { maxBytes: number; signal?: AbortSignal },
): Promise<number> {
  let bytes = 0;
  async function* limit(): AsyncGenerator<Uint8Array> {
    for await (const chunk of source) {
      bytes += chunk.byteLength;
      if (bytes > options.maxBytes) throw mediaTooLargeError(options.maxBytes);
      yield chunk;
    }
  }
  const file = createWriteStream(destPath);
  try {
    await pipeline(limit, file, options.signal ? { signal: options.signal } : {});
  } catch (error) {
    await fileClosed(file); // the caller removes the path: the file must exist by then
    throw error;
  }
  return bytes;
}

/**
 * The `media_too_large` error for a limit of `maxBytes` bytes (message in MB, no paths).
 * @param actualBytes the declared size when known (e.g. from Content-Length).
 */
export function mediaTooLargeError(maxBytes: number, actualBytes?: number): AppError {
  const size = actualBytes === undefined ? '' : ` (${formatSizeApartFrom(actualBytes, maxBytes)})`;
  return new AppError(
    'media_too_large',
    `The recording is larger${size} than the ${formatMebibytes(maxBytes)} limit. Send a shorter or more compressed file.`,
    { param: 'audio' },
  );
}

/**
 * Sizes in binary units, as the limits are set (spec 8: 300 MiB): 314572800 → "300 MiB",
 * 2_000_000 → "1.9 MiB"; under 0.1 MiB the bytes are shown ("4096 bytes").
 */
export function formatMebibytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  if (mib >= 10) return `${Math.round(mib)} MiB`;
  if (mib >= 0.1) return `${mib.toFixed(1)} MiB`;
  return `${bytes} bytes`;
}

/**
 * `bytes` formatted so that it never reads the same as `other`: "300.01 MiB" beside a 300 MiB
 * limit instead of "300 MiB", else the exact bytes.
 */
export function formatSizeApartFrom(bytes: number, other: number): string {
  const plain = formatMebibytes(bytes);
  if (plain !== formatMebibytes(other)) return plain;
  const precise = `${(bytes / (1024 * 1024)).toFixed(2)} MiB`;
  return precise !== `${(other / (1024 * 1024)).toFixed(2)} MiB` ? precise : `${bytes} bytes`;
}
