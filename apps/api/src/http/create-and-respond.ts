import { rm } from 'node:fs/promises';
import type { Request, Response } from 'express';
import {
  createPrediction,
  isTerminalStatus,
  parseFileUrl,
  parseWebhookParams,
  useFileAsUpload,
  waitForPrediction,
  type ServiceContext,
} from '@transcribe/core';
import { parsePreferWait } from './parse-prefer-wait.ts';
import type { CreateRequest } from './read-create-request.ts';
import { sendPrediction } from './send-prediction.ts';

export interface CreateOptions {
  /** Validated `X-Service-Output-Transformers` of the request, or null (spec 4.4). */
  outputTransformers: string | null;
  /** Output form of the earlier interface variant (spec 9), or null. */
  legacyFormat?: string | null;
  /** The earlier variant's `input` as sent, shown instead of its translation (spec 9). */
  legacyInput?: Record<string, unknown> | null;
}

/**
 * Creates the prediction of a read create request and answers 201 with it: validates `webhook` /
 * `webhook_events_filter` (spec 4.2), turns an `input.audio` naming a file of `POST /v1/files`
 * (its `urls.get`) into an upload of that file, and honours `Prefer: wait` (replicate-compat.md 5:
 * an unfinished prediction is shown as `starting`). A received upload is removed when creation fails.
 * @throws AppError `invalid_input` (422) and the errors of createPrediction.
 */
export async function createAndRespond(
  ctx: ServiceContext,
  req: Request,
  res: Response,
  request: CreateRequest,
  options: CreateOptions,
): Promise<void> {
  const apiKeyId = res.locals.apiKey.id;
  let upload = request.upload;
  let row;
  try {
    const webhook = parseWebhookParams(request.body, { allowHttp: ctx.config.allowPrivateNetwork });
    const fileId = upload ? null : parseFileUrl(audioOf(request.rawInput), ctx.config.apiBaseUrl);
    if (fileId) upload = await useFileAsUpload(ctx, fileId, apiKeyId);
    row = await createPrediction(ctx, {
      apiKeyId,
      namespace: 'api',
      rawInput: request.rawInput,
      outputTransformers: options.outputTransformers,
      legacyFormat: options.legacyFormat ?? null,
      legacyInput: options.legacyInput ?? null,
      webhook: webhook.webhook,
      webhookEventsFilter: webhook.webhookEventsFilter,
      upload,
      decodedAudio: request.decodedAudio ?? null,
    });
  } catch (error) {
    if (upload) await rm(upload.path, { force: true });
    throw error;
  }
  const waitMs = parsePreferWait(req.get('prefer'));
  if (waitMs === null) return sendPrediction(ctx, req, res, 201, row);
  const latest = await waitForPrediction(ctx.database.db, row.id, apiKeyId, waitMs);
  await sendPrediction(ctx, req, res, 201, latest, isTerminalStatus(latest.status) ? undefined : 'starting');
}

function audioOf(rawInput: unknown): unknown {
  return typeof rawInput === 'object' && rawInput !== null && Object.hasOwn(rawInput, 'audio')
    ? (rawInput as Record<string, unknown>).audio
    : undefined;
}
