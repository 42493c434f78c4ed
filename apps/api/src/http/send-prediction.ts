import type { Request, Response } from 'express';
import { toPublicPrediction, type ApiKeyRow, type PredictionRow, type PublicPrediction, type ServiceContext } from '@transcribe/core';
import { renderPredictionOutput } from './render-prediction-output.ts';

/**
 * The public prediction object for this request (spec 2.1; replicate-compat.md 4): output rendered
 * with the request's or the stored `X-Service-Output-Transformers` (spec 4.4), or the legacy string
 * (spec 9). `shownStatus` replaces an unfinished status (`starting` for `Prefer: wait`).
 */
export function predictionBody(ctx: ServiceContext, req: Request, row: PredictionRow, shownStatus?: 'starting'): PublicPrediction {
  const header = req.get('x-service-output-transformers') ?? row.outputTransformers;
  // Validated whatever the status, so a malformed header gives 422 on every GET (spec 4.4).
  // Every read is scoped to the key that made the prediction, so the requesting key signs its txt_file_url.
  const keyHash = (req.res?.locals.apiKey as ApiKeyRow | undefined)?.hash ?? null;
  const output = renderPredictionOutput(row.status === 'succeeded' ? row : null, header, ctx.config.apiBaseUrl, keyHash);
  return toPublicPrediction(row, { apiBaseUrl: ctx.config.apiBaseUrl, output, status: shownStatus });
}

/** Sends predictionBody as JSON with `status`. */
export function sendPrediction(
  ctx: ServiceContext,
  req: Request,
  res: Response,
  status: number,
  row: PredictionRow,
  shownStatus?: 'starting',
): void {
  res.locals.predictionId = row.id; // for the request log line
  res.status(status).json(predictionBody(ctx, req, row, shownStatus));
}
