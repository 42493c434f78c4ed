import { rm } from 'node:fs/promises';
import {
  AppError,
  cancelPrediction,
  createPrediction,
  isTerminalStatus,
  waitForPrediction,
  type AppErrorCode,
  type KnownVoice,
  type PredictionRow,
  type ServiceContext,
} from '@transcribe/core';
import type { ReceivedFile } from '../http/receive-raw-body.ts';

/** How long one wait for the end lasts before the client's connection is looked at again, ms. */
const WAIT_SLICE_MS = 1_000;

export interface AudioPredictionRequest {
  apiKeyId: string;
  /** The uploaded recording; moved into the prediction, or removed when creation fails. */
  file: ReceivedFile;
  /** Prediction parameters (spec 2.2) as JSON values; `output_format` is set here. */
  rawInput: Record<string, unknown>;
  /** Aborted when the client went away: the prediction is then canceled. */
  signal: AbortSignal;
  /**
   * Called once with the created row, before the wait: the request's log line names its id, and
   * stream-transcription.ts follows it live.
   */
  onCreated?: (row: PredictionRow) => void;
  /** `translate`: the engine's own translation into English (CreatePredictionRequest.task). */
  task?: 'translate';
  /** Voices given with the request (OpenAI's known speakers), recognised in the recording. */
  inlineVoices?: KnownVoice[];
}

/**
 * One synchronous OpenAI-style request as a normal prediction in the `api` namespace: created with
 * createPrediction (spec 2.2 validation, ledger, logs, `GET …/v1/account`, portal usage; an upload
 * has no link, so the cache of spec 2.6 never answers it), then waited for with waitForPrediction
 * (the `Prefer: wait` mechanism, in slices of WAIT_SLICE_MS with no overall limit: OpenAI's call
 * has none either). When `signal` aborts (the client disconnected), the prediction is canceled
 * (cancelPrediction; the worker stops within about a second) and the abort reason is thrown.
 * @returns the prediction's row once `succeeded`.
 * @throws AppError of createPrediction (`invalid_input` …); for a `failed` prediction an AppError
 *   with its stored `error_code` (else `internal`) and its message.
 */
export async function runAudioPrediction(ctx: ServiceContext, request: AudioPredictionRequest): Promise<PredictionRow> {
  let row: PredictionRow;
  try {
    row = await createPrediction(ctx, {
      apiKeyId: request.apiKeyId,
      namespace: 'api',
      rawInput: { ...request.rawInput, output_format: 'json' },
      upload: request.file,
      ...(request.task ? { task: request.task } : {}),
      ...(request.inlineVoices ? { inlineVoices: request.inlineVoices } : {}),
    });
  } catch (error) {
    await rm(request.file.path, { force: true });
    throw error;
  }
  request.onCreated?.(row);
  while (!isTerminalStatus(row.status)) {
    if (request.signal.aborted) {
      await cancelPrediction(ctx, row.id, request.apiKeyId);
      throw request.signal.reason;
    }
    row = await waitForPrediction(ctx.database.db, row.id, request.apiKeyId, WAIT_SLICE_MS);
  }
  if (row.status === 'succeeded') return row;
  if (row.status === 'canceled') throw new AppError('internal', `The transcription ${row.id} was canceled before it finished.`);
  throw new AppError((row.errorCode as AppErrorCode | null) ?? 'internal', row.error ?? 'The transcription failed.');
}
