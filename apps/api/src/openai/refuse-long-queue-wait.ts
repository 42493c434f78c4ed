import type { RequestHandler } from 'express';
import { estimateNewJobWait, type ServiceContext } from '@transcribe/core';
import { sendOpenAiError } from './send-openai-error.ts';

/**
 * Middleware of the synchronous OpenAI-compatible audio routes, before the body is read: when the
 * estimated wait for a worker of a job this key queued now (core estimateNewJobWait: the fair queue
 * and the engine's measured speed) is longer than ctx.config.maxSyncQueueWaitSeconds
 * (OPENAI_MAX_QUEUE_WAIT_SECONDS), answers 429 in OpenAI's error shape (`type` `requests`, `code`
 * `queue_wait_too_long`) with `Retry-After`: the whole seconds until the wait is expected to be back
 * within the bound (at least 1). The openai SDKs retry a 429 after Retry-After. A failed estimate
 * lets the request through (the bound protects the client's time, it is no admission control).
 */
export function refuseLongQueueWait(ctx: ServiceContext): RequestHandler {
  return async (_req, res, next) => {
    const bound = ctx.config.maxSyncQueueWaitSeconds;
    if (bound === undefined || !ctx.queueView) return next();
    let wait: number;
    try {
      wait = await estimateNewJobWait(ctx.database, ctx.queueView, res.locals.apiKey.id);
    } catch {
      return next();
    }
    if (wait <= bound) return next();
    const retryAfter = Math.max(1, Math.ceil(wait - bound));
    res.set('Retry-After', String(retryAfter));
    sendOpenAiError(
      res,
      429,
      `The service is busy: this recording would wait about ${Math.ceil(wait / 60)} min for a worker, longer than the ${Math.round(bound / 60)} min this endpoint waits. Try again in ${retryAfter} s, or use the asynchronous API (POST /v1/replicate/v1/predictions).`,
      { code: 'queue_wait_too_long' },
    );
  };
}
