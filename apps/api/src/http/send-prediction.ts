import type { Request, Response } from 'express';
import {
  toPublicPrediction,
  type ApiKeyRow,
  type PredictionRow,
  type PublicPrediction,
  type QueuePlace,
  type ServiceContext,
} from '@transcribe/core';
import { renderPredictionOutput } from './render-prediction-output.ts';

/**
 * The public prediction object for this request (spec 2.1; replicate-compat.md 4): output rendered
 * with the request's or the stored `X-Service-Output-Transformers` (spec 4.4), or the legacy string
 * (spec 9). `shownStatus` replaces an unfinished status (`starting` for `Prefer: wait`); `queue`, the
 * fair queue's place of an unfinished prediction (queuePlaceOf), is shown as the `queue` member.
 */
export function predictionBody(
  ctx: ServiceContext,
  req: Request,
  row: PredictionRow,
  shownStatus?: 'starting',
  queue?: QueuePlace | null,
): PublicPrediction {
  const header = req.get('x-service-output-transformers') ?? row.outputTransformers;
  // Validated whatever the status, so a malformed header gives 422 on every GET (spec 4.4).
  // Every read is scoped to the key that made the prediction, so the requesting key signs its txt_file_url.
  const keyHash = (req.res?.locals.apiKey as ApiKeyRow | undefined)?.hash ?? null;
  const output = renderPredictionOutput(row.status === 'succeeded' ? row : null, header, ctx.config.apiBaseUrl, keyHash);
  return toPublicPrediction(row, { apiBaseUrl: ctx.config.apiBaseUrl, output, status: shownStatus, queue });
}

/**
 * The fair queue's place of `row` when it is unfinished (ctx.queueView), else null. A failed read of
 * the queue leaves the member out rather than failing the request (it is an extension).
 */
export async function queuePlaceOf(ctx: ServiceContext, row: PredictionRow): Promise<QueuePlace | null> {
  if (!ctx.queueView || (row.status !== 'processing' && row.status !== 'starting')) return null;
  try {
    return await ctx.queueView.placeOf(row);
  } catch {
    return null;
  }
}

/** Sends predictionBody as JSON with `status`, with the `queue` member of an unfinished prediction. */
export async function sendPrediction(
  ctx: ServiceContext,
  req: Request,
  res: Response,
  status: number,
  row: PredictionRow,
  shownStatus?: 'starting',
): Promise<void> {
  res.locals.predictionId = row.id; // for the request log line
  const queue = await queuePlaceOf(ctx, row);
  res.status(status).json(predictionBody(ctx, req, row, shownStatus, queue));
}
