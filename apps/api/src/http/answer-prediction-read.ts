import type { Request, Response } from 'express';
import { findPrediction, type ServiceContext } from '@transcribe/core';
import { isSettledPrediction, type PredictionBodyCache } from './prediction-body-cache.ts';
import { predictionBody } from './send-prediction.ts';

/**
 * `GET /v1/predictions/{id}` (spec 4.3): the caller's prediction as JSON, 200. A finished prediction's
 * body is kept in `cache` per (key, id, `X-Service-Output-Transformers` value), so repeated polls of it
 * answer from memory with the same bytes; unfinished ones are read from the database every time.
 * @throws AppError `not_found` (another key's or no such prediction), `invalid_input` (malformed header, spec 4.4).
 */
export async function answerPredictionRead(ctx: ServiceContext, cache: PredictionBodyCache, req: Request, res: Response): Promise<void> {
  const id = String(req.params.id);
  const apiKeyId: string = res.locals.apiKey.id;
  res.locals.predictionId = id; // for the request log line
  const header = req.get('x-service-output-transformers') ?? null;
  let body = cache.get(apiKeyId, id, header);
  if (!body) {
    const row = await findPrediction(ctx.database.db, id, apiKeyId);
    body = Buffer.from(JSON.stringify(predictionBody(ctx, req, row)));
    if (isSettledPrediction(row)) cache.set(apiKeyId, id, header, body);
  }
  res.status(200).set('Content-Type', 'application/json; charset=utf-8').send(body);
}
