import { rm } from 'node:fs/promises';
import { AppError } from '../../platform/errors/app-error.ts';
import { writeLimitedFile } from './write-limited-file.ts';

/** Characters of a whole URI handed to the decoder per step by writeDataUri (any size works; this bounds memory). */
const SLICE_CHARS = 256 * 1024;
/** Longest `data:<mime>;params;base64` header we look at before the comma, in characters. */
const MAX_HEADER_CHARS = 1024;

export interface WrittenDataUri {
  /** Decoded bytes written to destPath. */
  bytes: number;
  /** Lower-cased media type without parameters; `application/octet-stream` when the URI gives none. */
  mimeType: string;
}

/**
 * A `data:` URI of `input.audio` decoded to a file while the request body arrived (the streaming JSON
 * body reader of the API), handed to createPrediction so the file is moved into place instead of the
 * URI being decoded again.
 */
export interface DecodedDataUri {
  /** Where the decoded bytes are (under DATA_DIR/uploads); removed by its owner unless `claimed`. */
  path: string;
  /** Decoded size in bytes. */
  bytes: number;
  /** Lower-cased media type without parameters. */
  mimeType: string;
  /**
   * The decoding error (malformed data), kept to be thrown where the decode of a whole URI would
   * have failed, so answers keep their order; null when the data decoded cleanly.
   */
  error: AppError | null;
  /** Set once createPrediction has moved the file to its final place. */
  claimed: boolean;
}

/**
 * Incremental decoder of one `data:[<mime>][;param=…][;base64],<data>` URI, fed its text in pieces of
 * any size (cut anywhere, even inside a `%XX` escape or a surrogate pair). Work and memory per piece
 * are linear in the piece: nothing already decoded is looked at again.
 */
export interface DataUriDecoder {
  /** Decodes the next piece of the URI's text; returns the bytes it completes (possibly none). */
  write(text: string): Buffer[];
  /** Ends the URI; returns the last bytes. */
  end(): Buffer[];
  /** The media type once the header has been read (`application/octet-stream` before). */
  readonly mimeType: string;
}

/**
 * Makes a DataUriDecoder. Base64 (standard or URL-safe, padding optional, whitespace and the
 * percent-escapes of `+ / =` ignored) or percent-encoded plain data (other characters count as their
 * UTF-8 bytes), as Replicate clients send local files (replicate-compat section 3).
 * @throws AppError `invalid_input` (param `audio`) from `write` / `end` for a malformed or empty URI,
 *   with the texts of writeDataUri.
 */
export function createDataUriDecoder(): DataUriDecoder {
  let head = ''; // text before the header has been read
  let header: { mimeType: string; base64: boolean } | null = null;
  let pending = ''; // a trailing '%', '%X' or high surrogate held until the next piece
  let sawData = false;
  let carry = '';
  let dataChars = 0;
  let padding = 0;
  // Data after the padding is reported at the end, so that a character outside the alphabet later
  // in the URI is reported instead, as when the whole URI is checked at once: the answer must not
  // depend on how the body was cut into pieces.
  let dataAfterPadding = false;

  function readHeader(final: boolean): string | null {
    const start = head.search(/\S/);
    if (start < 0) {
      if (final) throw malformed('it does not start with data:');
      head = ''; // only whitespace so far: nothing to keep
      return null;
    }
    if (start > 0) head = head.slice(start);
    if (head.length < 5 && !final) return null;
    if (head.slice(0, 5).toLowerCase() !== 'data:') throw malformed('it does not start with data:');
    const comma = head.slice(0, MAX_HEADER_CHARS).indexOf(',');
    if (comma < 0) {
      if (final || head.length >= MAX_HEADER_CHARS) throw malformed('the comma before the data is missing');
      return null;
    }
    const params = head
      .slice(5, comma)
      .split(';')
      .map((part) => part.trim());
    const base64 = params.length > 1 && params[params.length - 1]?.toLowerCase() === 'base64';
    const type = (params[0] ?? '').toLowerCase();
    header = { mimeType: /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream', base64 };
    const rest = head.slice(comma + 1);
    head = '';
    return rest;
  }

  function decode(text: string, final: boolean): Buffer[] {
    let slice = pending + text;
    pending = '';
    if (!final) {
      // Only the last two characters can start an unfinished escape: no scan of the piece.
      const cut = slice.endsWith('%') ? slice.length - 1 : slice.charAt(slice.length - 2) === '%' ? slice.length - 2 : slice.length;
      const code = slice.charCodeAt(cut - 1);
      const end = code >= 0xd800 && code <= 0xdbff ? cut - 1 : cut;
      pending = slice.slice(end);
      slice = slice.slice(0, end);
    }
    if (!sawData && /\S/.test(slice)) sawData = true;
    if (slice === '') return [];
    return header?.base64 ? base64Piece(slice) : [slice.includes('%') ? percentDecode(slice) : Buffer.from(slice, 'utf8')];
  }

  function base64Piece(slice: string): Buffer[] {
    const clean = cleanBase64(slice);
    if (dataAfterPadding) return [];
    const eq = clean.indexOf('=');
    if ((padding > 0 && /[^=]/.test(clean)) || (eq >= 0 && !/^=*$/.test(clean.slice(eq)))) {
      dataAfterPadding = true;
      return [];
    }
    const body = eq < 0 ? clean : clean.slice(0, eq);
    padding += clean.length - body.length;
    dataChars += body.length;
    const text = carry + body;
    const usable = text.length - (text.length % 4);
    carry = text.slice(usable);
    return usable > 0 ? [Buffer.from(text.slice(0, usable), 'base64')] : [];
  }

  return {
    get mimeType() {
      return header?.mimeType ?? 'application/octet-stream';
    },
    write(text) {
      if (header) return decode(text, false);
      head += text;
      const rest = readHeader(false);
      return rest === null ? [] : decode(rest, false);
    },
    end() {
      const out: Buffer[] = [];
      if (!header) {
        const rest = readHeader(true);
        if (rest !== null) out.push(...decode(rest, false));
      }
      out.push(...decode('', true));
      if (!sawData) throw malformed('it holds no data');
      if (!header?.base64) return out;
      if (dataAfterPadding) throw malformed('data follows the base64 padding');
      if (carry.length === 1 || padding > 2 || (padding > 0 && (dataChars + padding) % 4 !== 0)) {
        throw malformed('the base64 data has a wrong length');
      }
      if (carry.length > 0) out.push(Buffer.from(carry, 'base64'));
      return out;
    },
  };
}

/**
 * Decodes a `data:[<mime>][;param=…][;base64],<data>` URI into `destPath`, the way Replicate clients send
 * local files (replicate-compat section 3: `audio/x-wav`, `application/octet-stream`, or an empty type).
 * The URI is handed to createDataUriDecoder in fixed slices, so time is linear in its length and only
 * one slice of decoded bytes is in memory at a time. The partial file is removed on failure.
 * @param options.maxBytes limit in decoded bytes.
 * @param options.signal stops the decode (the partial file removed) with an `AbortError`.
 * @throws AppError `invalid_input` (param `audio`) for a malformed or empty URI; `media_too_large` past maxBytes.
 */
export async function writeDataUri(
  uri: string,
  destPath: string,
  options: { maxBytes: number; signal?: AbortSignal },
): Promise<WrittenDataUri> {
  const decoder = createDataUriDecoder();
  function* chunks(): Generator<Buffer> {
    for (let from = 0; from < uri.length; from += SLICE_CHARS) yield* decoder.write(uri.slice(from, from + SLICE_CHARS));
    yield* decoder.end();
  }
  try {
    const bytes = await writeLimitedFile(chunks(), destPath, options);
    return { bytes, mimeType: decoder.mimeType };
  } catch (error) {
    await rm(destPath, { force: true });
    throw error;
  }
}

/** True when `value` starts like a data URI (`data:`, any case). */
export function isDataUri(value: string): boolean {
  return /^\s*data:/i.test(value.slice(0, 16));
}

/** Removes whitespace and the percent-escapes of + / =, then checks the base64 alphabet. */
function cleanBase64(slice: string): string {
  let text = /\s/.test(slice) ? slice.replace(/\s+/g, '') : slice;
  if (text.includes('%')) text = text.replace(/%(2b|2f|3d)/gi, (escape) => decodeURIComponent(escape));
  if (!/^[A-Za-z0-9+/_=-]*$/.test(text)) throw malformed('the base64 data has characters outside the base64 alphabet');
  return text;
}

function percentDecode(slice: string): Buffer {
  const raw = Buffer.from(slice, 'utf8');
  const out = Buffer.allocUnsafe(raw.length);
  let length = 0;
  for (let index = 0; index < raw.length; index += 1) {
    const byte = raw[index] as number;
    if (byte !== 0x25) {
      out[length++] = byte;
      continue;
    }
    const hex = raw.toString('latin1', index + 1, index + 3);
    if (!/^[0-9a-f]{2}$/i.test(hex)) throw malformed('a % escape is not followed by two hex digits');
    out[length++] = Number.parseInt(hex, 16);
    index += 2;
  }
  return out.subarray(0, length);
}

function malformed(reason: string): AppError {
  return new AppError('invalid_input', `The audio data URI is malformed: ${reason}.`, { param: 'audio' });
}
