import { and, eq, gt, isNull, or } from 'drizzle-orm';
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

/** What revokeApiKey did. */
export interface RevokedApiKey {
  id: string;
  /** When the key stops (or stopped) working now. */
  revokedAt: Date;
  /**
   * When the key had already stopped working before this call (a second revoke), else null: the
   * call then changed nothing.
   */
  alreadyRevokedAt: Date | null;
}

/**
 * Revokes a key by id: it stops working at `effectiveAt` (now by default). A key that had already
 * stopped keeps its earlier time (`alreadyRevokedAt` says so); a key still in a reissue's grace
 * period (its stop time ahead, spec 5.3) is brought forward to `effectiveAt`. The change is
 * announced on the key-change channel in the same transaction (publish-api-key-changes.ts), so every
 * process that watches it forgets the key as the revocation commits; `options.cache` is forgotten
 * here directly. With `options.confirmWith` it returns only after every watching process confirmed
 * (spec 5.3: a revoked key stops working; "at once" means the next request anywhere after this
 * returns).
 * @throws AppError `not_found` when no key has this id.
 */
export async function revokeApiKey(db: Db, id: string, options: RevokeApiKeyOptions = {}): Promise<RevokedApiKey> {
  const effectiveAt = options.effectiveAt ?? new Date();
  const result = await confirmApiKeyChanges(
    options.confirmWith,
    (ticket) =>
      db.transaction(async (tx): Promise<RevokedApiKey> => {
        const [existing] = await tx
          .select({ id: apiKeys.id, revokedAt: apiKeys.revokedAt })
          .from(apiKeys)
          .where(eq(apiKeys.id, id))
          .limit(1);
        if (!existing) throw new AppError('not_found', `No API key has the id ${id}.`);
        if (existing.revokedAt && existing.revokedAt <= effectiveAt) {
          return { id, revokedAt: existing.revokedAt, alreadyRevokedAt: existing.revokedAt };
        }
        await tx
          .update(apiKeys)
          .set({ revokedAt: effectiveAt })
          .where(and(eq(apiKeys.id, id), or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, effectiveAt))));
        await publishApiKeyChanges(tx as unknown as Db, [id], ticket);
        return { id, revokedAt: effectiveAt, alreadyRevokedAt: null };
      }),
    { log: options.log },
  );
  options.cache?.forget([id]);
  return result;
}
