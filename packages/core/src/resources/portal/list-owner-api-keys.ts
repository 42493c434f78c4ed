import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys } from '../../platform/db/schema.ts';

export interface OwnerApiKey {
  id: string;
  label: string;
  /** First characters of the key, safe to show (`tsk_AbCdEf`). */
  prefix: string;
  createdAt: Date;
  /** Set for a reissued key still in its grace period (spec 5.3): when it stops working. */
  revokedAt: Date | null;
}

/**
 * The keys of `owner` that still work at `now`, newest first (the portal's Settings → API,
 * spec 5.2): live keys and reissued keys whose grace period (at most 5 minutes, spec 5.3) runs.
 */
export async function listOwnerApiKeys(db: Db, owner: string, now = new Date()): Promise<OwnerApiKey[]> {
  return db
    .select({ id: apiKeys.id, label: apiKeys.label, prefix: apiKeys.prefix, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.owner, owner), or(isNull(apiKeys.revokedAt), gt(apiKeys.revokedAt, now))))
    .orderBy(desc(apiKeys.createdAt));
}
