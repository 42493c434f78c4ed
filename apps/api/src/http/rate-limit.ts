import type { RequestHandler } from 'express';
import { AppError, type ServiceContext } from '@transcribe/core';

/** Requests a minute per API key; 0 turns a limit off. */
export interface RateLimits {
  /** Creates and every other non-GET request (cancel, uploads, deletes): RATE_LIMIT_PER_MINUTE. */
  writesPerMinute: number;
  /** GET and HEAD requests (polling): RATE_LIMIT_READS_PER_MINUTE. */
  readsPerMinute: number;
}

/** The env defaults (apps/api/src/env.ts), used when start-service did not configure the app. */
export const DEFAULT_RATE_LIMITS: RateLimits = { writesPerMinute: 300, readsPerMinute: 3000 };

/** Buckets kept before full (idle) ones are forgotten. */
const MAX_BUCKETS = 10_000;

export interface RateLimiter {
  /** Takes one token of `bucket`; returns 0 when allowed, else the whole seconds until one is free (≥ 1). */
  take(bucket: string, perMinute: number): number;
}

/**
 * An in-process token bucket per bucket name: capacity `perMinute` (a burst of up to one minute's
 * worth), refilled continuously at `perMinute`/60 tokens a second. One process limits on its own:
 * behind a load balancer with N API processes a key may get up to N times the limit (docs/reliability.md).
 * `now` returns ms (tests pass a clock).
 */
export function createRateLimiter(now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, Bucket>();
  return {
    take(bucket, perMinute) {
      const perMs = perMinute / 60_000;
      const t = now();
      const state = buckets.get(bucket) ?? { tokens: perMinute, at: t, perMinute };
      state.tokens = Math.min(perMinute, state.tokens + (t - state.at) * perMs);
      state.at = t;
      state.perMinute = perMinute;
      buckets.set(bucket, state);
      if (buckets.size > MAX_BUCKETS) forgetFull(buckets, t);
      if (state.tokens >= 1) {
        state.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - state.tokens) / perMs / 1000));
    },
  };
}

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, ms. */
  at: number;
  perMinute: number;
}

/** Drops the buckets that have refilled completely: forgetting them changes no answer. */
function forgetFull(buckets: Map<string, Bucket>, t: number): void {
  for (const [name, state] of buckets) {
    if (state.tokens + ((t - state.at) * state.perMinute) / 60_000 >= state.perMinute) buckets.delete(name);
  }
}

const configured = new WeakMap<ServiceContext, { limits: RateLimits; limiter: RateLimiter }>();

/** Sets the limits of the app built on `ctx` (start-service.ts, from RATE_LIMIT_PER_MINUTE and RATE_LIMIT_READS_PER_MINUTE). */
export function configureRateLimits(ctx: ServiceContext, limits: RateLimits): void {
  configured.set(ctx, { limits, limiter: createRateLimiter() });
}

function limiterOf(ctx: ServiceContext): { limits: RateLimits; limiter: RateLimiter } {
  let entry = configured.get(ctx);
  if (!entry) configured.set(ctx, (entry = { limits: DEFAULT_RATE_LIMITS, limiter: createRateLimiter() }));
  return entry;
}

/**
 * Middleware after `authenticate`: per API key, GET/HEAD count against the read limit and every
 * other method against the write limit (replicate-compat.md 6 and 10.11). Over the limit it answers
 * 429 problem+json with `Retry-After` in seconds before the body is read or anything is created,
 * so a 429 on a create means "not created" and the clients' retries are safe.
 * @throws AppError `rate_limited` (429).
 */
export function rateLimit(ctx: ServiceContext): RequestHandler {
  return (req, res, next) => {
    const { limits, limiter } = limiterOf(ctx);
    const read = req.method === 'GET' || req.method === 'HEAD';
    const perMinute = read ? limits.readsPerMinute : limits.writesPerMinute;
    if (perMinute <= 0) return next();
    const waitSeconds = limiter.take(`${read ? 'r' : 'w'}:${res.locals.apiKey.id}`, perMinute);
    if (waitSeconds === 0) return next();
    res.set('Retry-After', String(waitSeconds));
    const what = read ? 'reads (GET)' : 'creates and other changes';
    throw new AppError(
      'rate_limited',
      `Too many requests with this API key: at most ${perMinute} ${what} a minute. Nothing was done; retry after ${waitSeconds} s.`,
    );
  };
}
