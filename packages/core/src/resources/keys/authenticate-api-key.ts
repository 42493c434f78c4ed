import { timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys, type ApiKeyRow } from '../../platform/db/schema.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { hashApiKey } from './generate-api-key.ts';

/**
 * Finds the live key row for a presented secret. A key whose `revokedAt` has passed no longer works
 * (a reissue sets it up to 5 minutes ahead, spec 5.3). With `cache`, a row read less than its TTL
 * ago is used without a query (resources/keys/api-key-cache.ts; a revocation in this process forgets
 * it at once), and a secret found unknown less than KEY_CACHE_TTL_MS ago is refused without one.
 * @throws AppError `unauthenticated` for an unknown or revoked key.
 */
export async function authenticateApiKey(db: Db, secret: string, now = new Date(), cache?: ApiKeyCache): Promise<ApiKeyRow> {
  const hash = hashApiKey(secret);
  let row = cache?.get(hash);
  if (!row && !cache?.isUnknown(hash)) {
    const generation = cache?.generation() ?? 0;
    [row] = await db.select().from(apiKeys).where(eq(apiKeys.hash, hash)).limit(1);
    if (row && timingSafeEqual(Buffer.from(row.hash), Buffer.from(hash))) cache?.set(hash, row, generation);
    else {
      row = undefined;
      cache?.setUnknown(hash);
    }
  }
  if (!row || (row.revokedAt !== null && row.revokedAt <= now)) {
    throw new AppError('unauthenticated', 'The API key is not valid. Send a current key as "Authorization: Bearer <key>".');
  }
  return row;
}
