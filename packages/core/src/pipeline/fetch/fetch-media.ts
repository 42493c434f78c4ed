import { AppError } from '../../platform/errors/app-error.ts';
import { isDataUri, writeDataUri } from './decode-data-uri.ts';
import { downloadLink } from './download-link.ts';
import type { DownloadLinkOptions } from './download-link.ts';

/** Options of fetchMedia: those of downloadLink (maxBytes also limits data URIs). */
export type FetchMediaOptions = DownloadLinkOptions;

export interface FetchedMedia {
  /** Bytes written to destPath. */
  bytes: number;
  /** Lower-cased media type without parameters, from the data URI or the link's Content-Type; null when unknown. */
  mimeType: string | null;
}

/**
 * Puts the recording named by `input.audio` (spec 2.2) at `destPath`: an http(s) link is downloaded
 * (downloadLink), a `data:` URI is decoded (writeDataUri; replicate-compat section 3, file inputs of the
 * Replicate clients). Files uploaded to the service are resolved by the caller before this point.
 * @throws AppError `invalid_input` (param `audio`) for any other kind of value, plus the errors of
 *   downloadLink / writeDataUri (`media_too_large`, `upstream_refused`, `upstream_unreachable`, `address_not_allowed`).
 */
export async function fetchMedia(audio: string, destPath: string, options: FetchMediaOptions): Promise<FetchedMedia> {
  options.signal?.throwIfAborted();
  if (isDataUri(audio)) {
    const written = await writeDataUri(audio, destPath, { maxBytes: options.maxBytes });
    return { bytes: written.bytes, mimeType: written.mimeType };
  }
  if (!/^\s*https?:\/\//i.test(audio)) {
    throw new AppError('invalid_input', 'The audio must be an http:// or https:// link, a data: URI, or an uploaded file.', {
      param: 'audio',
    });
  }
  const downloaded = await downloadLink(audio.trim(), destPath, options);
  return { bytes: downloaded.bytes, mimeType: mimeOf(downloaded.contentType) };
}

/** `Audio/MPEG; charset=x` → `audio/mpeg`; null for absent or malformed types. */
function mimeOf(contentType: string | null): string | null {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : null;
}
