import type { Request, Response } from 'express';
import { findPrediction, type ServiceContext } from '@transcribe/core';
import { QUEUE_ANSWER_MAX_AGE_MS, toCachedAnswer, type CachedAnswer, type PredictionBodyCache } from './prediction-body-cache.ts';
import { predictionBody, queuePlaceOf } from './send-prediction.ts';

/**
 * `GET /v1/predictions/{id}` (spec 4.3): the caller's prediction as JSON, 200, with a strong `ETag`
 * (a hash of the body); a request whose `If-None-Match` names that tag (or `*`) gets 304 with no
 * body (RFC 9110 13.1.2), so a client polling an unchanged prediction downloads nothing. Answers
 * come from `cache` per (key, id, `X-Service-Output-Transformers` value) when it holds them:
 * finished predictions always, unfinished ones for at most UNFINISHED_ANSWER_TTL_MS and until the
 * prediction is written (prediction-body-cache.ts, watch-prediction-changes.ts); otherwise the row
 * is read from the database and the answer offered to the cache. An answer with a `queue` member
 * (unfinished) is served for at most QUEUE_ANSWER_MAX_AGE_MS, since other predictions move it.
 * @throws AppError `not_found` (another key's or no such prediction), `invalid_input` (malformed header, spec 4.4).
 */
export async function answerPredictionRead(ctx: ServiceContext, cache: PredictionBodyCache, req: Request, res: Response): Promise<void> {
  const id = String(req.params.id);
  const apiKeyId: string = res.locals.apiKey.id;
  res.locals.predictionId = id; // for the request log line
  const header = req.get('x-service-output-transformers') ?? null;
  let answer: CachedAnswer | undefined = cache.get(apiKeyId, id, header);
  if (!answer) {
    const readBegan = cache.beginRead();
    const row = await findPrediction(ctx.database.db, id, apiKeyId);
    const queue = await queuePlaceOf(ctx, row);
    answer = toCachedAnswer(row, Buffer.from(JSON.stringify(predictionBody(ctx, req, row, undefined, queue))));
    if (queue) answer.maxAgeMs = QUEUE_ANSWER_MAX_AGE_MS; // its place and estimates move without a write to the row
    cache.set(apiKeyId, id, header, answer, readBegan);
  }
  res.set('ETag', answer.etag);
  if (matchesEntityTag(req.get('if-none-match'), answer.etag)) return void res.status(304).end();
  res.status(200).set('Content-Type', 'application/json; charset=utf-8').send(answer.body);
}

/** RFC 9110 13.1.2: `If-None-Match` is `*` or a list of tags, compared weakly (a `W/` prefix is ignored). */
function matchesEntityTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
