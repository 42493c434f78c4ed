import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Database, Db } from '../../platform/db/open-database.ts';
import { apiKeys } from '../../platform/db/schema.ts';
import type { ApiKeyCache } from './api-key-cache.ts';
import { confirmApiKeyChanges } from './confirm-api-key-changes.ts';
import { publishApiKeyChanges } from './publish-api-key-changes.ts';
import { createApiKey, type CreatedApiKey } from './create-api-key.ts';

/** Spec 5.3 and 8: after a reissue the old key is revoked within 5 minutes. */
export const MAX_KEY_REISSUE_GRACE_SECONDS = 300;

export interface ReissueApiKeyRequest {
  /** Whose keys, e.g. `telegram:42`. */
  owner: string;
  /** Label of the new key, e.g. `telegram bot`. */
  label: string;
  /** Seconds the old keys keep working, 0..300 (spec 5.3: within 5 minutes). */
  graceSeconds: number;
  now?: Date;
  /** This process's key cache, which then forgets the old keys before this call returns. */
  cache?: ApiKeyCache | undefined;
  /** The open database, on which the call waits for every key-caching process to confirm (confirm-api-key-changes.ts). */
  confirmWith?: Database | undefined;
  /** Where a key-caching process that did not confirm in time is reported (confirmApiKeyChanges); absent: not reported. */
  log?: (message: string) => void;
}

export interface ReissuedApiKey extends CreatedApiKey {
  /** Ids of the keys this call revoked, or whose later stop time it brought forward (an earlier one is kept). */
  revokedKeyIds: string[];
  /** When the revoked keys stop working: `now + graceSeconds`. */
  oldKeysStopAt: Date;
}

/**
 * Issues a new API key for `owner` and revokes every live key of that owner effective
 * `now + graceSeconds` (spec 5.2 get-key action, 5.3 revocation within 5 minutes); a key already
 * set to stop later than that (an earlier reissue with a longer grace) stops at the new time too,
 * so "stop right away" in the portal means every old key. Both happen in one transaction, which also
 * announces the change on the key-change channel (publish-api-key-changes.ts): every process that
 * watches it re-reads the old keys' rows, so each stops at its new time there too; with
 * `request.confirmWith` this returns only after each of them confirmed. The new key's
 * secret is returned once and never stored.
 * @throws RangeError when `graceSeconds` is not an integer in 0..300 (a configuration error).
 */
export async function reissueUserApiKey(db: Db, request: ReissueApiKeyRequest): Promise<ReissuedApiKey> {
  const { owner, label, graceSeconds } = request;
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_KEY_REISSUE_GRACE_SECONDS) {
    throw new RangeError(
      `The key reissue grace period must be 0..${MAX_KEY_REISSUE_GRACE_SECONDS} seconds (spec 5.3); got ${graceSeconds}.`,
    );
  }
  const oldKeysStopAt = new Date((request.now ?? new Date()).getTime() + graceSeconds * 1000);
  const reissued = await confirmApiKeyChanges(
    request.confirmWith,
    (ticket) =>
      db.transaction(async (tx) => {
        const revoked = await tx
          .update(apiKeys)
          .set({ revokedAt: oldKeysStopAt })
          .where(and(eq(apiKeys.owner, owner), or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, oldKeysStopAt))))
          .returning({ id: apiKeys.id });
        const created = await createApiKey(tx as unknown as Db, label, owner);
        await publishApiKeyChanges(
          tx as unknown as Db,
          revoked.map((row) => row.id),
          ticket,
        );
        return { ...created, revokedKeyIds: revoked.map((row) => row.id), oldKeysStopAt };
      }),
    { log: request.log },
  );
  request.cache?.forget(reissued.revokedKeyIds);
  return reissued;
}
