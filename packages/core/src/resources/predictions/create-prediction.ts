import type { KnownVoice } from '../../pipeline/voices/identify-speakers.ts';
import { resolveKnownVoices, voiceAccountOfKeyId } from '../voices/resolve-known-voices.ts';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError } from '../../platform/errors/app-error.ts';
import { containsNul } from '../../contract/validation/contains-nul.ts';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';
import { wakeTranscribeWorkers } from '../../platform/jobs/wake-transcribe-workers.ts';
import { writeDataUri, type DecodedDataUri } from '../../pipeline/fetch/decode-data-uri.ts';
import { releaseUpload, shareUpload } from '../../platform/storage/share-upload.ts';
import type { PredictionChannel, ServiceContext } from '../../service-context.ts';
import { checkPredictionInput } from './check-prediction-input.ts';
import type { PredictionInput } from '../../contract/validation/prediction-input.ts';
import { CURRENT_INPUT_ECHO, describeInput, LEGACY_INPUT_ECHO } from './describe-input.ts';
import { newPredictionId } from './new-prediction-id.ts';
import type { PredictionSource } from '../../platform/storage/prediction-source.ts';

export interface CreatePredictionRequest {
  apiKeyId: string;
  /** Cache namespace of the caller (spec 2.6.6). */
  namespace: 'api' | 'bot' | 'portal';
  /** The `input` object exactly as the client sent it. */
  rawInput: unknown;
  /** `X-Service-Output-Transformers` sent on create (already validated), or null. */
  outputTransformers?: string | null;
  legacyFormat?: string | null;
  /**
   * The `input` as a client of the earlier variant sent it (`url`, `output_format`; spec 9), when
   * `rawInput` is its translation to the current interface: this is what the prediction shows.
   */
  legacyInput?: Record<string, unknown> | null;
  /**
   * `translate`: the engine's own translation into English (PredictionInput.task); set only by the
   * OpenAI-compatible translations endpoint, never from a client's input.
   */
  task?: 'translate';
  /** Voices given with this request (OpenAI's known speakers: measureReferenceVoices), recognised instead of the registry's. */
  inlineVoices?: KnownVoice[];
  webhook?: string | null;
  webhookEventsFilter?: string[] | null;
  /** A file already saved by the caller (multipart / octet-stream upload); `audio` is then not required. */
  upload?: { path: string; bytes: number; name: string } | null;
  /**
   * The `data:` URI of `audio`, already decoded to a file while the request body arrived (the API's
   * streaming JSON reader; `audio` then holds a short sample of it): the file is moved into place
   * instead of `audio` being decoded, and its decoding error is thrown where that decode would fail.
   */
  decodedAudio?: DecodedDataUri | null;
  /**
   * Seconds of audio when the caller knows them before the job runs (Telegram states a voice
   * message's length): the cost charged to the key in the fair queue (resources/queue/), else a
   * default until the job ends.
   */
  expectedAudioSeconds?: number | null;
}

/**
 * Creates a prediction: validates the input (spec 2.2, 4.5: before anything is downloaded), stores an
 * inline `data:` recording as an upload, inserts the row in status `processing` (spec 3) and its job
 * in one transaction (shared with the creates of the same moment: group commit), waking this process's idle workers (a repeat with a stored transcript then ends within
 * milliseconds instead of after the queue's polling interval). Returns the stored row.
 * @throws AppError `invalid_input` (422, no row made), `media_too_large`, `service_busy`.
 */
export async function createPrediction(ctx: ServiceContext, request: CreatePredictionRequest): Promise<PredictionRow> {
  const raw = asInputObject(request.rawInput, request.upload);
  if (containsNul(raw))
    throw new AppError('invalid_input', 'The input contains a NUL character (\\u0000), which no parameter may hold.', { param: 'input' });
  const params = checkPredictionInput(ctx, raw, request.upload?.name);
  if (request.task === 'translate') {
    if (!ctx.engine.translates)
      throw new AppError('invalid_input', `The recognition engine ${ctx.engine.name} does not translate speech.`, { param: 'task' });
    params.task = 'translate';
  }
  if (request.inlineVoices && request.inlineVoices.length > 0) params.inline_voices = request.inlineVoices;
  if (params.known_voices) {
    // Before any download, like every input rule: the named voices must be the account's (422 otherwise).
    const account = await voiceAccountOfKeyId(ctx.database.db, request.apiKeyId);
    const known = await resolveKnownVoices(ctx.database.db, account, params.known_voices);
    if (params.known_voices !== true) params.known_voices = known.map((voice) => voice.id);
  }
  const id = newPredictionId();
  const source = await storeSource(ctx, id, params, request.upload ?? null, request.decodedAudio ?? null);
  const row = await insertAndEnqueue(ctx, source, request.expectedAudioSeconds ?? null, {
    id,
    apiKeyId: request.apiKeyId,
    namespace: request.namespace,
    status: 'processing',
    input: request.legacyInput
      ? describeInput(request.legacyInput, source.kind === 'upload' ? source.bytes : undefined, LEGACY_INPUT_ECHO)
      : describeInput(raw, source.kind === 'upload' ? source.bytes : undefined, CURRENT_INPUT_ECHO),
    params,
    source,
    outputTransformers: request.outputTransformers ?? null,
    legacyFormat: request.legacyFormat ?? null,
    webhook: request.webhook ?? null,
    webhookEventsFilter: request.webhookEventsFilter ?? null,
  });
  ctx.metrics?.created(row.namespace as PredictionChannel);
  wakeTranscribeWorkers(ctx);
  return row;
}

function asInputObject(rawInput: unknown, upload: CreatePredictionRequest['upload']): Record<string, unknown> {
  const raw = typeof rawInput === 'object' && rawInput !== null && !Array.isArray(rawInput) ? rawInput : null;
  if (raw === null && !upload) {
    throw new AppError('invalid_input', 'The request needs an "input" object with at least "audio" (a link to the recording).', {
      param: 'input',
    });
  }
  return { ...(raw ?? {}) } as Record<string, unknown>;
}

async function storeSource(
  ctx: ServiceContext,
  id: string,
  params: PredictionInput,
  upload: CreatePredictionRequest['upload'],
  decoded: DecodedDataUri | null,
): Promise<PredictionSource> {
  if (upload) return shareUpload(ctx, id, { kind: 'upload', path: upload.path, bytes: upload.bytes });
  if (!params.audio.startsWith('data:')) return { kind: 'link', url: params.audio };
  const dir = join(ctx.config.dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  const path = join(dir, id);
  let bytes: number;
  try {
    if (decoded?.error) throw decoded.error;
    if (decoded) await rename(decoded.path, path);
    if (decoded) decoded.claimed = true;
    bytes = decoded ? decoded.bytes : (await writeDataUri(params.audio, path, { maxBytes: ctx.config.maxMediaBytes })).bytes;
    params.audio = 'data:';
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
  return shareUpload(ctx, id, { kind: 'upload', path, bytes });
}

/**
 * Inserts the prediction and its pg-boss job in one transaction, with the other creates of this moment
 * (ServiceContext.insertPrediction: resources/predictions/create-prediction-inserter.ts).
 * @throws AppError `service_busy` when the row or the job cannot be stored (nothing is then kept, nor
 *   the stored upload).
 */
async function insertAndEnqueue(
  ctx: ServiceContext,
  source: PredictionSource,
  expectedAudioSeconds: number | null,
  values: typeof predictions.$inferInsert,
): Promise<PredictionRow> {
  try {
    return await ctx.insertPrediction({ values, expectedAudioSeconds });
  } catch (cause) {
    await releaseUpload(ctx, source); // no prediction owns it
    throw new AppError('service_busy', 'The service could not queue this prediction. Try again shortly.', { cause });
  }
}
