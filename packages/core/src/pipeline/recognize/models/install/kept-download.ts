import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';

/**
 * What the server said identifies the bytes of a download (RFC 9110 8.8): its ETag and
 * Last-Modified, kept beside the partial file (`<file>.validator.json`) so that a resume, even by
 * a later run of the CLI, can send `If-Range` and never splice the tail of a changed file onto
 * the head of the old one.
 */
export interface DownloadValidator {
  /** The URL the bytes came from. */
  url: string;
  /** The ETag header as sent (`"abc"` or `W/"abc"`), or null. */
  etag: string | null;
  /** The Last-Modified header as sent (an HTTP date), or null. */
  lastModified: string | null;
}

/** Where the validator of the download kept in `file` is stored. */
export function downloadValidatorPath(file: string): string {
  return `${file}.validator.json`;
}

/** The validator kept for `file`, or null when there is none (or it is unreadable). */
export async function readDownloadValidator(file: string): Promise<DownloadValidator | null> {
  try {
    const value = JSON.parse(await readFile(downloadValidatorPath(file), 'utf8')) as Partial<DownloadValidator>;
    const text = (field: unknown) => (typeof field === 'string' && field !== '' ? field : null);
    return { url: text(value.url) ?? '', etag: text(value.etag), lastModified: text(value.lastModified) };
  } catch {
    return null;
  }
}

/** Stores the validator of `file` from a response's headers (temporary file, then rename). */
export async function writeDownloadValidator(file: string, url: string, headers: Headers): Promise<void> {
  const validator: DownloadValidator = { url, etag: headers.get('etag'), lastModified: headers.get('last-modified') };
  const temporary = `${downloadValidatorPath(file)}.${randomUUID()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(validator)}\n`);
  await rename(temporary, downloadValidatorPath(file));
}

/**
 * The value to send as `If-Range` (RFC 9110 13.1.5): the ETag when it is strong (a weak one must
 * not be used there), else the Last-Modified date; null when neither is known, and then a resume
 * cannot be made safe and the download must start again.
 */
export function ifRangeValue(validator: DownloadValidator | null): string | null {
  if (validator?.etag && !validator.etag.startsWith('W/')) return validator.etag;
  return validator?.lastModified ?? null;
}

/** Deletes a kept download and its validator. */
export async function removeKeptDownload(file: string): Promise<void> {
  await rm(file, { force: true });
  await rm(downloadValidatorPath(file), { force: true });
}
