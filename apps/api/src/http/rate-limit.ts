import type { RequestHandler } from 'express';
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError, rateLimits, type Database, type RequestKind, type RequestLimiter, type ServiceContext } from '@transcribe/core';

/** Requests a minute per API key; 0 turns a limit off. */
export interface RateLimits {
  /** Creates and every other non-GET request (cancel, uploads, deletes): RATE_LIMIT_PER_MINUTE. */
  writesPerMinute: number;
  /** GET and HEAD requests (polling): RATE_LIMIT_READS_PER_MINUTE. */
  readsPerMinute: number;
}

/** The env defaults (apps/api/src/env.ts), used when start-service did not configure the app. */
export const DEFAULT_RATE_LIMITS: RateLimits = { writesPerMinute: 300, readsPerMinute: 3000 };

/** The length of one counting window, seconds: limits are per minute. */
const WINDOW_SECONDS = 60;

/**
 * Creates the per-key limits (rate-limiter-flexible): each key may make `perMinute` requests of a
 * kind in a window of 60 s that starts with its first one.
 * - Writes (creates, cancels, uploads) on PostgreSQL are counted in the `rate_limits` table
 *   (RateLimiterDrizzle, through the service's own driver), so every API process on the database
 *   counts against the same limit; a write touches the database anyway. Each write is one `consume`
 *   of the library (one upsert, through Database.preparedDb so it runs prepared; the table is
 *   UNLOGGED, so it commits without a WAL flush: docs/reliability.md). While the database cannot
 *   answer, each process falls back to counting in its own memory (the library's insurance
 *   limiter), so an outage neither lets every request through nor refuses them all. Once a key is
 *   over its limit, the rest of its window is answered from memory without a query
 *   (`inMemoryBlockOnConsumed`).
 * - Reads (polls) are counted in each process's memory: a poll of a finished prediction is answered
 *   from memory without any query, and a query per poll to count it would cost more than the poll.
 *   Behind N API processes a key may then poll up to N times RATE_LIMIT_READS_PER_MINUTE.
 * - PGlite is one process: both stay in memory.
 */
export function createRequestLimiter(database: Pick<Database, 'preparedDb' | 'kind'>, limits: RateLimits): RequestLimiter {
  const make = (kind: RequestKind, points: number): RateLimiterAbstract | null => {
    if (points <= 0) return null;
    const options = { keyPrefix: kind, points, duration: WINDOW_SECONDS };
    if (database.kind !== 'postgres' || kind === 'read') return new RateLimiterMemory(options);
    return new RateLimiterDrizzle({
      ...options,
      storeClient: database.preparedDb,
      schema: rateLimits,
      inMemoryBlockOnConsumed: points,
      inMemoryBlockDuration: WINDOW_SECONDS,
      insuranceLimiter: new RateLimiterMemory(options),
    });
  };
  const limiters: Record<RequestKind, RateLimiterAbstract | null> = {
    read: make('read', limits.readsPerMinute),
    write: make('write', limits.writesPerMinute),
  };
  const perMinute: Record<RequestKind, number> = { read: limits.readsPerMinute, write: limits.writesPerMinute };
  return {
    perMinute: (kind) => Math.max(0, perMinute[kind]),
    async take(kind, apiKeyId) {
      const limiter = limiters[kind];
      if (!limiter) return 0;
      try {
        await limiter.consume(apiKeyId);
        return 0;
      } catch (refusal) {
        if (!(refusal instanceof RateLimiterRes)) throw refusal;
        return Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      }
    },
  };
}

/**
 * Middleware after `authenticate`: per API key, GET/HEAD count against the read limit and every
 * other method against the write limit (replicate-compat.md 6 and 10.11). Over the limit it answers
 * 429 problem+json with `Retry-After` in seconds before the body is read or anything is created,
 * so a 429 on a create means "not created" and the clients' retries are safe. The limiter is
 * `ctx.requestLimiter` (start-service.ts sets it from RATE_LIMIT_PER_MINUTE and
 * RATE_LIMIT_READS_PER_MINUTE); an app built on a context without one makes it once, with the
 * defaults, and keeps it on the context so every router of the app counts together.
 * @throws AppError `rate_limited` (429).
 */
export function rateLimit(ctx: ServiceContext): RequestHandler {
  return async (req, res, next) => {
    ctx.requestLimiter ??= createRequestLimiter(ctx.database, DEFAULT_RATE_LIMITS);
    const kind: RequestKind = req.method === 'GET' || req.method === 'HEAD' ? 'read' : 'write';
    const perMinute = ctx.requestLimiter.perMinute(kind);
    if (perMinute <= 0) return next();
    const waitSeconds = await ctx.requestLimiter.take(kind, res.locals.apiKey.id);
    if (waitSeconds === 0) return next();
    ctx.metrics?.rateLimited?.(kind);
    res.set('Retry-After', String(waitSeconds));
    const what = kind === 'read' ? 'reads (GET)' : 'creates and other changes';
    throw new AppError(
      'rate_limited',
      `Too many requests with this API key: at most ${perMinute} ${what} a minute. Nothing was done; retry after ${waitSeconds} s.`,
    );
  };
}
