import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import busboy, { type Busboy } from 'busboy';
import type { Request } from 'express';
import { AppError, uploadTooLargeError, writeUploadFile } from '@transcribe/core';
import { clientWentAway, interruptedUploadError, type ReceivedFile } from './receive-raw-body.ts';

/** Largest text part (and small file part such as a `metadata` blob), in bytes. */
export const MAX_FIELD_BYTES = 64 * 1024;
/** Most parts of one form. */
export const MAX_PARTS = 64;
/** Room for the non-file parts on top of the file limit when a Content-Length is declared, in bytes. */
const FORM_OVERHEAD_BYTES = MAX_PARTS * MAX_FIELD_BYTES;

/**
 * Text parts allowed to be longer than MAX_FIELD_BYTES, such as OpenAI's `known_speaker_references[]`
 * (a 2–10 s clip as a `data:` URL, which the official SDKs send as a text part).
 */
export interface LargeFields {
  /** Part names that may be long. */
  names: readonly string[];
  /** Longest such part, in bytes. */
  maxBytes: number;
  /** Most such parts in one form (all names together): bounds what one request can hold in memory. */
  maxCount: number;
}

export interface ReceivedForm {
  /** Text parts (and small file parts other than the file) by name, in arrival order. */
  fields: [string, string][];
  /** The part named `fileField`, saved to disk; null when the form had none. */
  file: ReceivedFile | null;
}

/**
 * Reads a `multipart/form-data` body with busboy (spec 4.1 `input.audio`, and `content` of
 * `POST /v1/files`). The part named `fileField` is streamed to a new file in `dir` (one chunk in
 * memory at a time) with its size and SHA-256; other parts are read as text up to MAX_FIELD_BYTES.
 * On failure the parser stops reading the body and the partial file is removed.
 * @param options.maxBytes limit of the file in bytes (spec 8: 300 MiB).
 * @param options.largeFields text parts that may be longer than MAX_FIELD_BYTES (LargeFields).
 * @throws AppError `payload_too_large` (413) past the limit (declared Content-Length or counted);
 *   `invalid_input` (422) for a malformed body, a second file, too many or too long parts.
 */
export async function receiveForm(req: Request, options: FormOptions): Promise<ReceivedForm> {
  const declared = Number(req.headers['content-length'] ?? Number.NaN);
  const largeRoom = options.largeFields ? options.largeFields.maxBytes * options.largeFields.maxCount : 0;
  if (declared > options.maxBytes + FORM_OVERHEAD_BYTES + largeRoom) throw uploadTooLargeError(options.maxBytes);
  const parser = openParser(req, options.maxBytes, Math.max(MAX_FIELD_BYTES, options.largeFields?.maxBytes ?? 0));
  await mkdir(options.dir, { recursive: true });
  return new FormReception(req, parser, options).run();
}

interface FormOptions {
  fileField: string;
  dir: string;
  maxBytes: number;
  largeFields?: LargeFields;
}

/** File part names other APIs use for the upload, answered with the name this endpoint reads. */
const HABITUAL_FILE_PARTS = ['file', 'audio', 'audio_file', 'upload', 'recording'];

/** One multipart body being read: the parts so far, the file being written, and the outcome. */
class FormReception {
  private readonly fields: [string, string][] = [];
  private file: ReceivedFile | null = null;
  private current: Readable | null = null;
  private saving: Promise<void> = Promise.resolve();
  private failed = false;
  private largeCount = 0;
  private settle: { resolve(form: ReceivedForm): void; reject(error: unknown): void } | null = null;

  constructor(
    private readonly req: Request,
    private readonly parser: Busboy,
    private readonly options: FormOptions,
  ) {}

  run(): Promise<ReceivedForm> {
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
      const { parser, req } = this;
      parser.on('file', (name, stream, info) => this.onFile(name, stream, info));
      parser.on('field', (name, value, info) => this.onField(name, value, info.valueTruncated));
      for (const event of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
        parser.on(event, () => this.fail(invalid(`The form has too many parts (at most ${MAX_PARTS}).`)));
      }
      parser.on('error', (error: Error) => this.fail(invalid(`The multipart/form-data body could not be read: ${error.message}.`)));
      req.on('error', (error) => this.fail(interruptedUploadError(error)));
      parser.on('close', () => {
        void this.saving.then(() => {
          if (!this.failed) this.settle?.resolve({ fields: this.fields, file: this.file });
        });
      });
      req.pipe(parser);
    });
  }

  /** A text part: kept, or refused when longer than its limit (MAX_FIELD_BYTES, or LargeFields') or one large part too many. */
  private onField(name: string, value: string, truncated: boolean): void {
    if (this.failed) return;
    const large = this.options.largeFields;
    if (large?.names.includes(name)) {
      if (truncated || Buffer.byteLength(value) > large.maxBytes) {
        return this.fail(invalid(`The form part ${name.slice(0, 64)} is longer than ${large.maxBytes / 1024 / 1024} MiB.`, name));
      }
      this.largeCount += 1;
      if (this.largeCount > large.maxCount) {
        return this.fail(invalid(`The form has more than ${large.maxCount} parts named ${large.names.join(' or ')}.`, name));
      }
      return void this.fields.push([name, value]);
    }
    if (!truncated && Buffer.byteLength(value) <= MAX_FIELD_BYTES) return void this.fields.push([name, value]);
    this.fail(
      invalid(
        `The form part ${name.slice(0, 64)} is longer than ${MAX_FIELD_BYTES / 1024} KiB; send the recording as a file part with a filename.`,
      ),
    );
  }

  /** The upload part is streamed to disk; any other file part is read as a small text part. */
  private onFile(name: string, stream: Readable, info: { filename?: string; mimeType: string }): void {
    if (this.failed) return void stream.resume();
    if (name !== this.options.fileField && HABITUAL_FILE_PARTS.includes(name.toLowerCase())) {
      stream.resume(); // whisper.cpp, OpenAI and most upload forms name the part `file` or `audio`
      return this.fail(
        invalid(
          `The form part ${name.slice(0, 64)} is not read here: send the recording as the form part ${this.options.fileField}.`,
          this.options.fileField,
        ),
      );
    }
    if (name !== this.options.fileField) return readSmallPart(stream, name, this.fields, (error) => this.fail(error));
    if (this.current) {
      stream.resume();
      return this.fail(invalid(`Send one file only: the form has more than one part named ${this.options.fileField}.`));
    }
    this.current = stream;
    const path = join(this.options.dir, `upload-${randomBytes(9).toString('hex')}`);
    const contentType = info.mimeType || 'application/octet-stream';
    this.saving = writeUploadFile(stream, path, { maxBytes: this.options.maxBytes }).then(
      ({ bytes, sha256 }) => {
        this.file = { path, bytes, sha256, name: cleanName(info.filename), contentType };
      },
      (error: unknown) => this.fail(error instanceof AppError || !clientWentAway(this.req) ? error : interruptedUploadError(error)),
    );
  }

  /** Stops reading the body at once, removes what was written, then rejects with `error`. */
  private fail(error: unknown): void {
    if (this.failed) return;
    this.failed = true;
    this.req.unpipe(this.parser);
    this.current?.destroy();
    void this.saving.then(async () => {
      if (this.file) await rm(this.file.path, { force: true });
      this.settle?.reject(error);
    });
  }
}

function openParser(req: Request, maxBytes: number, fieldSize: number): Busboy {
  try {
    return busboy({
      headers: req.headers,
      limits: { fileSize: maxBytes + 1, fieldSize, parts: MAX_PARTS, fields: MAX_PARTS, files: MAX_PARTS },
    });
  } catch (error) {
    throw invalid(`The multipart/form-data body could not be read: ${(error as Error).message}.`);
  }
}

/** Reads a file part that is not the upload (e.g. the `metadata` JSON blob of the JS client) as text. */
function readSmallPart(stream: Readable, name: string, fields: [string, string][], fail: (error: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  stream.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_FIELD_BYTES) {
      stream.resume();
      return fail(invalid(`The form part ${name.slice(0, 64)} is longer than ${MAX_FIELD_BYTES / 1024} KiB.`));
    }
    chunks.push(chunk);
  });
  stream.on('end', () => fields.push([name, Buffer.concat(chunks).toString('utf8')]));
}

function cleanName(filename: string | undefined): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const name = (filename ?? '').replace(/[\u0000-\u001f]/g, '').slice(0, 200);
  return name || 'upload';
}

function invalid(detail: string, param = 'input'): AppError {
  return new AppError('invalid_input', detail, { param });
}
