import type { RequestHandler } from 'express';
import { AppError, authenticateApiKey, type ApiKeyCache, type ApiKeyRow, type Db } from '@transcribe/core';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      apiKey: ApiKeyRow;
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
 * With `cache` (KEY_CACHE_TTL_MS), a key seen within the TTL needs no query (resources/keys/api-key-cache.ts).
 */
export function authenticate(db: Db, cache?: ApiKeyCache): RequestHandler {
  return async (req, res, next) => {
    const key = readPresentedKey(req.headers);
    if (!key) {
      throw new AppError('unauthenticated', 'No API key was sent. Send the header "Authorization: Bearer <key>".');
    }
    res.locals.apiKey = await authenticateApiKey(db, key, new Date(), cache);
    next();
  };
}
