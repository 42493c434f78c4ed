import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request } from 'express';
import { AppError, checkPredictionInput, type DecodedDataUri, type ServiceContext } from '@transcribe/core';
import { formFieldsToInput } from './form-fields-to-input.ts';
import { receiveForm } from './receive-form.ts';
import { decodedDataUriOf } from './receive-json-body.ts';
import { receiveRawBody } from './receive-raw-body.ts';

/** The only value of `X-Service-Body-Field` (spec 4.1): the parameter that receives the body. */
export const BODY_FIELD = 'input.audio';

/** A create request, whatever its body form (spec 4.1). */
export interface CreateRequest {
  /** The `input` as sent, or built from form parts / query parameters. */
  rawInput: unknown;
  /** A file received in the request, saved under DATA_DIR/uploads; null for JSON bodies. */
  upload: { path: string; bytes: number; name: string } | null;
  /** Top-level members of a JSON body (`version`, `webhook` …); `{}` for uploads. */
  body: Readonly<Record<string, unknown>>;
  /**
   * The `data:` URI of a JSON body's `input.audio` (`input.url` on the earlier variant), decoded to a
   * file as the body arrived (receive-json-body.ts); `rawInput` then holds a short sample of the URI.
   * Absent or null otherwise.
   */
  decodedAudio?: DecodedDataUri | null;
}

/**
 * Reads a create request in one of the three body forms of spec 4.1 (`uploads` true) or JSON only:
 * - `application/json` (or no body): `input` and the other members, as read by receiveJsonBody (a
 *   `data:` URI in `input.audio` arrives already decoded to a file: `decodedAudio`);
 * - `multipart/form-data`: part `input.audio` holds the file, other `input.<name>` parts the
 *   parameters (formFieldsToInput); without a file, `input.audio` must be a link;
 * - `application/octet-stream`: the raw file; header `X-Service-Body-Field: input.audio`, parameters
 *   as `input.<name>` query parameters, checked before the body is read.
 * Files are streamed to disk; the caller removes `upload.path` when creation fails.
 * @throws AppError `unsupported_media_type` (415) for other content types, `invalid_input` (422),
 *   `payload_too_large` (413).
 */
export async function readCreateRequest(ctx: ServiceContext, req: Request, options: { uploads: boolean }): Promise<CreateRequest> {
  const type = contentTypeOf(req);
  if (type === '' || type === 'application/json') {
    const body = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? (req.body as Record<string, unknown>) : {};
    return { rawInput: body.input, upload: null, body, decodedAudio: decodedDataUriOf(req) };
  }
  const uploadType = type === 'multipart/form-data' || type === 'application/octet-stream';
  if (!uploadType || !options.uploads) throw unsupportedType(type, options.uploads);
  const dir = join(ctx.config.dataDir, 'uploads');
  return type === 'multipart/form-data' ? readMultipart(req, dir, ctx.config.maxMediaBytes) : readOctetStream(ctx, req, dir);
}

async function readMultipart(req: Request, dir: string, maxBytes: number): Promise<CreateRequest> {
  const form = await receiveForm(req, { fileField: BODY_FIELD, dir, maxBytes });
  const file = form.file;
  try {
    const rawInput = formFieldsToInput(form.fields);
    if (file && Object.hasOwn(rawInput, 'audio')) {
      throw new AppError('invalid_input', 'input.audio is given twice, as a file and as text: send either the file or a link.', {
        param: 'audio',
      });
    }
    if (file && file.bytes === 0) {
      throw new AppError('invalid_input', 'The uploaded input.audio file is empty.', { param: 'audio' });
    }
    return { rawInput, upload: file, body: {} };
  } catch (error) {
    if (file) await rm(file.path, { force: true });
    throw error;
  }
}

async function readOctetStream(ctx: ServiceContext, req: Request, dir: string): Promise<CreateRequest> {
  const field = req.get('x-service-body-field');
  if (field === undefined || field.trim() === '') {
    throw new AppError(
      'invalid_input',
      `An application/octet-stream body needs the header "X-Service-Body-Field: ${BODY_FIELD}" naming the parameter that receives the file.`,
      { param: 'X-Service-Body-Field' },
    );
  }
  if (field.trim() !== BODY_FIELD) {
    throw new AppError(
      'invalid_input',
      `X-Service-Body-Field must be ${BODY_FIELD}, the only parameter that takes a file; got "${field.trim().slice(0, 40)}".`,
      { param: 'X-Service-Body-Field' },
    );
  }
  const query = new URL(req.originalUrl, 'http://service.invalid').searchParams;
  const rawInput = formFieldsToInput(query.entries());
  if (Object.hasOwn(rawInput, 'audio')) {
    throw new AppError('invalid_input', 'input.audio comes from the body here; do not send it as a query parameter too.', {
      param: 'audio',
    });
  }
  checkPredictionInput(ctx, rawInput, 'upload'); // refuse bad parameters before reading 300 MiB
  const file = await receiveRawBody(req, { dir, maxBytes: ctx.config.maxMediaBytes });
  return { rawInput, upload: file, body: {} };
}

/** Lower-cased media type without parameters; '' when absent. */
export function contentTypeOf(req: Request): string {
  return (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function unsupportedType(type: string, uploads: boolean): AppError {
  const accepted = uploads
    ? 'application/json, multipart/form-data (part input.audio holds the file) or application/octet-stream (with X-Service-Body-Field: input.audio)'
    : 'application/json; to upload a file, use POST …/v1/models/service/transcribe/predictions or POST …/v1/files';
  return new AppError('unsupported_media_type', `Content-Type ${type.slice(0, 60)} is not accepted here; send ${accepted}.`);
}
