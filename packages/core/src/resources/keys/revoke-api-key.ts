import { and, eq, isNull } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Database, Db } from '../../platform/db/open-database.ts';
import { apiKeys } from '../../platform/db/schema.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { confirmApiKeyChanges } from './confirm-api-key-changes.ts';
import { publishApiKeyChanges } from './publish-api-key-changes.ts';

export interface RevokeApiKeyOptions {
  /** When the key stops working: now by default; a reissue passes a time at most 5 minutes ahead (spec 5.3). */
  effectiveAt?: Date;
  /** This process's key cache, which then forgets the key before this call returns. */
  cache?: ApiKeyCache | undefined;
  /**
   * The open database, on which the call waits until every other key-caching process confirms it
   * dropped the key (confirm-api-key-changes.ts); without it the change is only announced.
   */
  confirmWith?: Database | undefined;
  /** Where a key-caching process that did not confirm in time is reported (confirmApiKeyChanges); absent: not reported. */
  log?: (message: string) => void;
}

/**
 * Revokes a key by id. Revoking a revoked key keeps its earlier time. The change is announced on
 * the key-change channel in the same transaction (publish-api-key-changes.ts), so every process that
 * watches it forgets the key as the revocation commits; `options.cache` is forgotten here directly.
 * With `options.confirmWith` it returns only after every watching process confirmed (spec 5.3: a
 * revoked key stops working; "at once" means the next request anywhere after this returns).
 * @throws AppError `not_found` when no key has this id.
 */
export async function revokeApiKey(db: Db, id: string, options: RevokeApiKeyOptions = {}): Promise<void> {
  const effectiveAt = options.effectiveAt ?? new Date();
  await confirmApiKeyChanges(
    options.confirmWith,
    (ticket) =>
      db.transaction(async (tx) => {
        const [existing] = await tx.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.id, id)).limit(1);
        if (!existing) throw new AppError('not_found', `No API key has the id ${id}.`);
        await tx
          .update(apiKeys)
          .set({ revokedAt: effectiveAt })
          .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)));
        await publishApiKeyChanges(tx as unknown as Db, [id], ticket);
      }),
    { log: options.log },
  );
  options.cache?.forget([id]);
}
