import { rm } from 'node:fs/promises';
import { AppError } from '../errors/app-error.ts';
import { writeLimitedFile } from './write-limited-file.ts';

/** Characters of the data part handled per step (a multiple of 4, so base64 decodes in whole quanta). */
const SLICE_CHARS = 256 * 1024;
/** Longest `data:<mime>;params;base64` header we look at before the comma. */
const MAX_HEADER_CHARS = 1024;

export interface WrittenDataUri {
  /** Decoded bytes written to destPath. */
  bytes: number;
  /** Lower-cased media type without parameters; `application/octet-stream` when the URI gives none. */
  mimeType: string;
}

/**
 * Decodes a `data:[<mime>][;param=…][;base64],<data>` URI into `destPath`, the way Replicate clients send
 * local files (replicate-compat section 3: `audio/x-wav`, `application/octet-stream`, or an empty type).
 * Base64 (standard or URL-safe, padding optional, whitespace ignored) is decoded slice by slice, and so is
 * percent-encoded plain data, so only one slice of decoded bytes is in memory at a time.
 * The partial file is removed on failure.
 * @param options.maxBytes limit in decoded bytes.
 * @throws AppError `invalid_input` (param `audio`) for a malformed or empty URI; `media_too_large` past maxBytes.
 */
export async function writeDataUri(uri: string, destPath: string, options: { maxBytes: number }): Promise<WrittenDataUri> {
  const header = parseDataUriHeader(uri);
  const chunks = header.base64 ? base64Chunks(uri, header.dataStart) : percentChunks(uri, header.dataStart);
  try {
    const bytes = await writeLimitedFile(chunks, destPath, { maxBytes: options.maxBytes });
    return { bytes, mimeType: header.mimeType };
  } catch (error) {
    await rm(destPath, { force: true });
    throw error;
  }
}

/** True when `value` starts like a data URI (`data:`, any case). */
export function isDataUri(value: string): boolean {
  return /^\s*data:/i.test(value.slice(0, 16));
}

function parseDataUriHeader(uri: string): { mimeType: string; base64: boolean; dataStart: number } {
  const start = uri.search(/\S/);
  if (start < 0 || uri.slice(start, start + 5).toLowerCase() !== 'data:') throw malformed('it does not start with data:');
  const comma = uri.slice(start, start + MAX_HEADER_CHARS).indexOf(',');
  if (comma < 0) throw malformed('the comma before the data is missing');
  const params = uri.slice(start + 5, start + comma).split(';').map((part) => part.trim());
  const base64 = params.length > 1 && params[params.length - 1]?.toLowerCase() === 'base64';
  const type = (params[0] ?? '').toLowerCase();
  const mimeType = /^[\w.+-]+\/[\w.+-]+$/.test(type) ? type : 'application/octet-stream';
  const dataStart = start + comma + 1;
  if (uri.slice(dataStart).trim() === '') throw malformed('it holds no data');
  return { mimeType, base64, dataStart };
}

/** Slices of uri[start..], never cutting a %XX escape or a surrogate pair in two. */
function* textSlices(uri: string, start: number): Generator<string> {
  for (let from = start; from < uri.length; ) {
    let end = Math.min(from + SLICE_CHARS, uri.length);
    if (end < uri.length) {
      const percent = uri.lastIndexOf('%', end - 1);
      if (percent >= end - 2 && percent > from) end = percent;
      const code = uri.charCodeAt(end - 1);
      if (code >= 0xd800 && code <= 0xdbff) end -= 1;
    }
    yield uri.slice(from, end);
    from = end;
  }
}

/** Decodes base64 in whole 4-character quanta; validates alphabet and padding. */
function* base64Chunks(uri: string, start: number): Generator<Buffer> {
  let carry = '';
  let dataChars = 0;
  let padding = 0;
  for (const slice of textSlices(uri, start)) {
    const clean = cleanBase64(slice);
    const eq = clean.indexOf('=');
    if (padding > 0 && /[^=]/.test(clean)) throw malformed('data follows the base64 padding');
    const body = eq < 0 ? clean : clean.slice(0, eq);
    if (eq >= 0 && !/^=*$/.test(clean.slice(eq))) throw malformed('data follows the base64 padding');
    padding += clean.length - body.length;
    dataChars += body.length;
    const text = carry + body;
    const usable = text.length - (text.length % 4);
    if (usable > 0) yield Buffer.from(text.slice(0, usable), 'base64');
    carry = text.slice(usable);
  }
  if (carry.length === 1 || padding > 2 || (padding > 0 && (dataChars + padding) % 4 !== 0)) {
    throw malformed('the base64 data has a wrong length');
  }
  if (carry.length > 0) yield Buffer.from(carry, 'base64');
}

/** Removes whitespace and the percent-escapes of + / =, then checks the base64 alphabet. */
function cleanBase64(slice: string): string {
  let text = /\s/.test(slice) ? slice.replace(/\s+/g, '') : slice;
  if (text.includes('%')) text = text.replace(/%(2b|2f|3d)/gi, (escape) => decodeURIComponent(escape));
  if (!/^[A-Za-z0-9+/_=-]*$/.test(text)) throw malformed('the base64 data has characters outside the base64 alphabet');
  return text;
}

/** Percent-decodes plain (non-base64) data; other characters count as their UTF-8 bytes. */
function* percentChunks(uri: string, start: number): Generator<Buffer> {
  for (const slice of textSlices(uri, start)) yield slice.includes('%') ? percentDecode(slice) : Buffer.from(slice, 'utf8');
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
