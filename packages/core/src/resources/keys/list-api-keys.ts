import { asc } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys } from '../../platform/db/schema.ts';

export interface ApiKeySummary {
  id: string;
  label: string;
  prefix: string;
  owner: string | null;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Lists every key (never the secret or its hash), oldest first. */
export async function listApiKeys(db: Db): Promise<ApiKeySummary[]> {
  return db
    .select({
      id: apiKeys.id,
      label: apiKeys.label,
      prefix: apiKeys.prefix,
      owner: apiKeys.owner,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .orderBy(asc(apiKeys.createdAt));
}
