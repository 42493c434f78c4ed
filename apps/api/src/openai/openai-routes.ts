/**
 * The OpenAI-compatible speech-to-text API (docs/openai-api.md), mounted under `/v1`, so
 * an OpenAI SDK works with only its base URL changed to `{base_url}/v1`.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * const client = new OpenAI({ baseURL: 'http://localhost:8000/v1', apiKey: 'sk_…' }); // a key of this service
 * const { text } = await client.audio.transcriptions.create({ file: fs.createReadStream('talk.mp3'), model: 'whisper-1' });
 * ```
 */
import { rm } from 'node:fs/promises';
import { Router, type Request, type Response } from 'express';
import type { ApiKeyCache, PredictionRow, ServiceContext } from '@transcribe/core';
import { AppError, getSucceededTranscript, measureReferenceVoices, type KnownVoice } from '@transcribe/core';
import { authenticate } from '../http/authenticate.ts';
import type { AuthFailureLimiter } from '../http/limit-auth-failures.ts';
import { rateLimit } from '../http/rate-limit.ts';
import { answerOfTranslation, planTranslation } from './plan-translation.ts';
import { readAudioForm, type AudioForm } from './read-audio-form.ts';
import { answerOfTranscript, renderAudioResponse, type AudioAnswer } from './render-audio-response.ts';
import { runAudioPrediction, type AudioPredictionRequest } from './run-audio-prediction.ts';
import { streamTranscription } from './stream-transcription.ts';
import { refuseLongQueueWait } from './refuse-long-queue-wait.ts';
import { handleOpenAiError } from './send-openai-error.ts';

/** The model name OpenAI's clients default to; answered as an alias of the configured engine. */
export const WHISPER_ALIAS = 'whisper-1';

/** Fields besides `file` and `model` each endpoint takes (OpenAI API reference, plus the service extensions). */
const TRANSCRIPTION_FIELDS = new Set(['language', 'prompt', 'service.speakers', 'service.hotwords', 'stream', 'known_speaker_names[]']);
const TRANSLATION_FIELDS = new Set(['prompt', 'service.speakers', 'service.hotwords']);

/** Prediction parameter (spec 2.2) → the form field that carries it here, for `error.param`. */
const FIELD_OF_PARAM: Readonly<Record<string, string>> = {
  audio: 'file',
  input: 'file',
  speakers: 'service.speakers',
  hotwords: 'service.hotwords',
  samples: 'known_speaker_references[]',
};

/**
 * The routes `POST /audio/transcriptions`, `POST /audio/translations`, `GET /models` and
 * `GET /models/{id}`: each authenticates (`Authorization: Bearer`, http/authenticate.ts, counting
 * failed keys per address with `failures`: http/limit-auth-failures.ts) and is
 * rate-limited per key (http/rate-limit.ts) before its body is read (the audio routes also refuse a
 * wait for a worker past OPENAI_MAX_QUEUE_WAIT_SECONDS: refuse-long-queue-wait.ts), and answers errors in OpenAI's
 * shape (send-openai-error.ts). Other paths fall through to the next router.
 */
export function openAiRoutes(ctx: ServiceContext, keys: ApiKeyCache, failures?: AuthFailureLimiter): Router {
  const router = Router();
  const guard = [authenticate(ctx.database.db, keys, failures), rateLimit(ctx)];
  const created = Math.floor(Date.now() / 1000);

  router.post('/audio/transcriptions', ...guard, refuseLongQueueWait(ctx), async (req, res) => {
    const form = await readAudioForm(ctx, req, TRANSCRIPTION_FIELDS);
    await withUpload(form, () => checkModel(ctx, form.model));
    const inlineVoices =
      form.knownSpeakers.length === 0 ? undefined : await withUpload(form, () => measureReferenceVoices(ctx, form.knownSpeakers));
    if (form.stream) return streamTranscription(ctx, res, requestOf(res, form, {}, undefined, inlineVoices)); // text as it is recognised (SSE)
    const row = await runForRequest(ctx, req, res, form, {}, undefined, inlineVoices);
    sendAnswer(res, answerOfTranscript(getSucceededTranscript(row)), form);
  });

  router.post('/audio/translations', ...guard, refuseLongQueueWait(ctx), async (req, res) => {
    const form = await readAudioForm(ctx, req, TRANSLATION_FIELDS);
    await withUpload(form, () => checkModel(ctx, form.model));
    const plan = await withUpload(form, () => planTranslation(ctx, form.responseFormat));
    const row =
      plan.by === 'engine'
        ? await runForRequest(ctx, req, res, form, {}, 'translate')
        : await runForRequest(ctx, req, res, form, { post_process: plan.post_process, target_language: plan.target_language });
    sendAnswer(res, answerOfTranslation(getSucceededTranscript(row), row.results, plan), { ...form, granularities: ['segment'] });
  });

  router.get('/models', ...guard, (_req, res) => {
    res.json({ object: 'list', data: listModelIds(ctx).map((id) => modelObject(id, created)) });
  });

  router.get('/models/:id', ...guard, (req, res) => {
    const id = String(req.params.id);
    checkModel(ctx, id);
    res.json(modelObject(id, created));
  });

  router.use(handleOpenAiError((param) => FIELD_OF_PARAM[param] ?? param));
  return router;
}

/** The names GET /v1/models lists: the configured engine's name and `whisper-1`. */
export function listModelIds(ctx: ServiceContext): string[] {
  return [...new Set([ctx.engine.name, WHISPER_ALIAS])];
}

/**
 * Refuses a model name this service has nothing for, as OpenAI answers an unknown model (HTTP 404,
 * `code: "model_not_found"`, sendAppErrorAsOpenAi): a typo such as `whisper-large-v3-typo` is told,
 * not silently run on another engine. Accepted: the names GET /v1/models lists (listModelIds).
 * @throws AppError `not_found` with `param: 'model'`.
 */
function checkModel(ctx: ServiceContext, model: string): void {
  const names = listModelIds(ctx);
  if (names.includes(model)) return;
  throw new AppError(
    'not_found',
    `The model "${model.slice(0, 80)}" does not exist here; use one of the names GET /v1/models lists: ${names.join(', ')}.`,
    { param: 'model' },
  );
}

function modelObject(id: string, created: number): { id: string; object: 'model'; created: number; owned_by: string } {
  return { id, object: 'model', created, owned_by: 'transcribe-service' };
}

/** Runs the prediction of a read form; a client that disconnects first cancels it. */
async function runForRequest(
  ctx: ServiceContext,
  _req: Request,
  res: Response,
  form: AudioForm,
  extra: Record<string, unknown>,
  task?: 'translate',
  inlineVoices?: KnownVoice[],
): Promise<PredictionRow> {
  return runAudioPrediction(ctx, requestOf(res, form, extra, task, inlineVoices));
}

/** The prediction request of a read form, with a signal aborted when the client disconnects before the answer ends. */
function requestOf(
  res: Response,
  form: AudioForm,
  extra: Record<string, unknown>,
  task?: 'translate',
  inlineVoices?: KnownVoice[],
): AudioPredictionRequest {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) gone.abort(new Error('The client disconnected before the answer was ready.'));
  });
  return {
    apiKeyId: res.locals.apiKey.id,
    file: form.file,
    rawInput: { ...form.rawInput, ...extra },
    signal: gone.signal,
    ...(task ? { task } : {}),
    ...(inlineVoices ? { inlineVoices } : {}),
    onCreated: (row) => (res.locals.predictionId = row.id), // for the request log line, failed or not
  };
}

/** Runs `check`; when it throws, the form's upload is removed first. */
async function withUpload<T>(form: AudioForm, check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    await rm(form.file.path, { force: true });
    throw error;
  }
}

function sendAnswer(res: Response, answer: AudioAnswer, form: Pick<AudioForm, 'responseFormat' | 'granularities'>): void {
  const rendered = renderAudioResponse(answer, form.responseFormat, form.granularities);
  res.status(200).type(rendered.contentType).send(rendered.body);
}
