import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys } from '../../platform/db/schema.ts';
import { generateApiKey } from './generate-api-key.ts';

export interface CreatedApiKey {
  id: string;
  label: string;
  prefix: string;
  createdAt: Date;
  /** The key itself: shown to its owner once, never stored. */
  secret: string;
}

/** Creates and stores (hashed) a new API key. `owner` ties it to a person, e.g. `telegram:42`. */
export async function createApiKey(db: Db, label: string, owner: string | null = null): Promise<CreatedApiKey> {
  const key = generateApiKey();
  const [row] = await db.insert(apiKeys).values({ id: key.id, label, prefix: key.prefix, hash: key.hash, owner }).returning();
  if (!row) throw new Error('insert into api_keys returned no row');
  return { id: row.id, label: row.label, prefix: row.prefix, createdAt: row.createdAt, secret: key.secret };
}
