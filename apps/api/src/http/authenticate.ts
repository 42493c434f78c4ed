import type { RequestHandler } from 'express';
import { AppError, authenticateApiKey, isAppError, type ApiKeyCache, type ApiKeyRow, type Db } from '@transcribe/core';
import { failureAddressOf, refuseOverFailureLimit, type AuthFailureLimiter } from './limit-auth-failures.ts';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      apiKey: ApiKeyRow;
      /** The prediction a request concerns, for its log line (logging/log-requests.ts). */
      predictionId?: string;
    }
  }
}

/**
 * Reads the key from `Authorization: Bearer <key>` (spec 5.1), the older `Token <key>` scheme
 * (Python client ≤ 0.25, JS ≤ 0.29.1), or the legacy header name `Authentication` (spec 9).
 * Returns null when no key was sent.
 */
export function readPresentedKey(headers: Record<string, string | string[] | undefined>): string | null {
  const value = headers.authorization ?? headers.authentication;
  const header = Array.isArray(value) ? value[0] : value;
  if (!header) return null;
  const match = /^\s*(?:bearer|token)\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/**
 * Middleware: 401 unless a live API key is presented; stores the key row in `res.locals.apiKey`.
 * With `cache` (KEY_CACHE_TTL_MS), a key seen within the TTL needs no query, nor does a key found
 * unknown within it (resources/keys/api-key-cache.ts). With `failures` (AUTH_FAILURES_PER_MINUTE),
 * an unknown or revoked key counts against the client's address, and an address over its limit is
 * answered 429 with Retry-After before its key is looked up (limit-auth-failures.ts); a request
 * without a key costs no lookup and is not counted.
 * @throws AppError `unauthenticated` (401), `rate_limited` (429).
 */
export function authenticate(db: Db, cache?: ApiKeyCache, failures?: AuthFailureLimiter): RequestHandler {
  return async (req, res, next) => {
    const key = readPresentedKey(req.headers);
    if (!key) throw new AppError('unauthenticated', describeMissingKey(req.headers));
    if (failures && !failures.quiet()) await refuseOverFailureLimit(failures, req, res);
    try {
      res.locals.apiKey = await authenticateApiKey(db, key, new Date(), cache);
    } catch (error) {
      if (failures && isAppError(error, 'unauthenticated')) await failures.failed(failureAddressOf(req));
      throw error;
    }
    next();
  };
}

/**
 * Why no key could be read, told as the header to send: nothing sent, a bare key without its
 * scheme, or another scheme (Basic, an `X-API-Key` header the way other services take keys).
 */
export function describeMissingKey(headers: Record<string, string | string[] | undefined>): string {
  const send = 'Send the header "Authorization: Bearer <key>".';
  const value = headers.authorization ?? headers.authentication;
  const header = (Array.isArray(value) ? value[0] : value)?.trim();
  if (header) {
    if (/^tsk_\S+$/.test(header)) return `The Authorization header holds a bare key: put "Bearer " before it. ${send}`;
    const scheme = /^(\S+)\s/.exec(header)?.[1];
    return scheme
      ? `The Authorization scheme "${scheme.slice(0, 20)}" is not accepted: use Bearer (or Token). ${send}`
      : `The Authorization header has no key after its scheme. ${send}`;
  }
  const other = ['x-api-key', 'api-key', 'x-auth-token'].find((name) => headers[name] !== undefined);
  if (other) return `Keys are not read from the header ${other}. ${send}`;
  return `No API key was sent. ${send}`;
}
