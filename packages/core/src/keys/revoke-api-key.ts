import { and, eq, isNull } from 'drizzle-orm';
import { AppError } from '../errors/app-error.ts';
import type { Db } from '../db/open-database.ts';
import { apiKeys } from '../db/schema.ts';
import { forgetCachedApiKeys } from './api-key-cache.ts';

/**
 * Revokes a key by id, effective at `effectiveAt` (now by default; a reissue passes a time at most
 * 5 minutes ahead, spec 5.3). Revoking a revoked key keeps its earlier time. The key is forgotten by
 * this process's key caches at once (api-key-cache.ts).
 * @throws AppError `not_found` when no key has this id.
 */
export async function revokeApiKey(db: Db, id: string, effectiveAt = new Date()): Promise<void> {
  const [existing] = await db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
  if (!existing) throw new AppError('not_found', `No API key has the id ${id}.`);
  await db
    .update(apiKeys)
    .set({ revokedAt: effectiveAt })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
  forgetCachedApiKeys([id]);
}
