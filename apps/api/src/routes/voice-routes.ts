import { join } from 'node:path';
import express, { Router, type Request, type RequestHandler } from 'express';
import {
  addSamplesSchema,
  addVoiceSamples,
  AppError,
  createVoice,
  createVoiceSchema,
  deleteVoice,
  discardVoiceSamples,
  findVoice,
  listVoices,
  parseVoiceRequest,
  toPublicVoice,
  voiceAccountOf,
  type ServiceContext,
  type VoiceSampleSource,
} from '@transcribe/core';
import { contentTypeOf } from '../http/read-create-request.ts';
import { receiveForm } from '../http/receive-form.ts';

/**
 * Largest JSON body of the voice routes, bytes: up to 8 samples as `data:` URIs of at most 30 s each
 * (a 30 s 48 kHz stereo WAV is 5.8 MB, 7.7 MB in base64); longer recordings go by link or upload.
 */
const VOICE_JSON_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * The voice registry (docs/speakers.md) under `/v1/voices`: `POST /voices` (enroll: a name and 1+
 * samples of one speaker, 2–30 s each, as JSON `{name, samples: [link | data: URI]}` or multipart with
 * `name`, a `sample` file and optional `samples` links), `GET /voices`, `GET` and `DELETE /voices/{id}`,
 * `POST /voices/{id}/samples`. `guard` authenticates and rate-limits as for predictions; voices belong
 * to the key's account (voiceAccountOf) and another account's are 404. Every body rule lives in
 * contract/validation/known-voices-schema.ts; the samples' own refusals (no speech, two voices, too
 * short) in pipeline/voices/measure-voice-sample.ts.
 */
export function voiceRoutes(ctx: ServiceContext, guard: RequestHandler[]): Router {
  const router = Router();
  router.use('/voices', ...guard);

  router.post('/voices', async (req, res) => {
    const body = await readVoiceBody(ctx, req);
    try {
      const { name, samples } = parseVoiceRequest(createVoiceSchema({ uploads: body.files.length }), body.json);
      const sources = [...body.files, ...samples.map((value): VoiceSampleSource => ({ kind: 'link', value }))];
      body.files = [];
      const row = await createVoice(ctx, { account: voiceAccountOf(res.locals.apiKey), name, samples: sources, signal: gone(res) });
      res.status(201).json({ ...toPublicVoice(row), speech_seconds_used: row.speechSeconds });
    } finally {
      await discardVoiceSamples(body.files);
    }
  });

  router.get('/voices', async (_req, res) => {
    const rows = await listVoices(ctx.database.db, voiceAccountOf(res.locals.apiKey));
    res.json({ results: rows.map(toPublicVoice) });
  });

  router.get('/voices/:id', async (req, res) => {
    res.json(toPublicVoice(await findVoice(ctx.database.db, String(req.params.id), voiceAccountOf(res.locals.apiKey))));
  });

  router.delete('/voices/:id', async (req, res) => {
    await deleteVoice(ctx.database.db, String(req.params.id), voiceAccountOf(res.locals.apiKey));
    res.status(204).end();
  });

  router.post('/voices/:id/samples', async (req, res) => {
    const body = await readVoiceBody(ctx, req);
    try {
      const { samples } = parseVoiceRequest(addSamplesSchema({ uploads: body.files.length }), body.json);
      const sources = [...body.files, ...samples.map((value): VoiceSampleSource => ({ kind: 'link', value }))];
      body.files = [];
      const { row, addedSeconds } = await addVoiceSamples(ctx, {
        account: voiceAccountOf(res.locals.apiKey),
        id: String(req.params.id),
        samples: sources,
        signal: gone(res),
      });
      res.json({ ...toPublicVoice(row), speech_seconds_used: addedSeconds });
    } finally {
      await discardVoiceSamples(body.files);
    }
  });

  return router;
}

/** A voice request's body: its members as JSON, and the uploaded sample file if any (removed by the caller unless handed on). */
interface VoiceBody {
  json: unknown;
  files: VoiceSampleSource[];
}

/**
 * Reads a JSON body (application/json, at most VOICE_JSON_LIMIT_BYTES) or a multipart form (`name`,
 * `samples` text parts, one `sample` file streamed to DATA_DIR/uploads).
 * @throws AppError `unsupported_media_type` (415) for another body type; the errors of receiveForm and express.json.
 */
async function readVoiceBody(ctx: ServiceContext, req: Request): Promise<VoiceBody> {
  const type = contentTypeOf(req);
  if (type === 'multipart/form-data') {
    const form = await receiveForm(req, {
      fileField: 'sample',
      dir: join(ctx.config.dataDir, 'uploads'),
      maxBytes: ctx.config.maxMediaBytes,
    });
    const json: Record<string, unknown> = {};
    const links = form.fields.filter(([name]) => name === 'samples' || name === 'samples[]').map(([, value]) => value);
    if (links.length > 0) json.samples = links;
    const name = form.fields.findLast(([field]) => field === 'name')?.[1];
    if (name !== undefined) json.name = name;
    return { json, files: form.file ? [{ kind: 'file', path: form.file.path }] : [] };
  }
  if (type !== 'application/json') {
    throw new AppError(
      'unsupported_media_type',
      `Send {"name": …, "samples": [...]} as application/json, or a multipart form with name and a sample file; got ${type === '' ? 'no Content-Type' : type.slice(0, 60)}.`,
    );
  }
  await new Promise<void>((resolve, reject) =>
    jsonParser(req, req.res!, (error?: unknown) => (error ? reject(jsonError(error)) : resolve())),
  );
  return { json: req.body as unknown, files: [] };
}

const jsonParser = express.json({ limit: VOICE_JSON_LIMIT_BYTES, type: () => true });

/** express.json's errors in the API's words: 413 past the limit, 422 for JSON that does not parse. */
function jsonError(error: unknown): AppError {
  const status = (error as { status?: number }).status;
  if (status === 413) {
    return new AppError(
      'payload_too_large',
      `The body is over ${VOICE_JSON_LIMIT_BYTES / 1024 / 1024} MiB: send long samples as links or a multipart upload.`,
    );
  }
  return new AppError('invalid_input', 'The body is not valid JSON.', { param: 'body', cause: error });
}

/** A signal aborted when the client goes away before the answer (the sample work then stops). */
function gone(res: import('express').Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) controller.abort(new Error('The client disconnected.'));
  });
  return controller.signal;
}
