import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys } from '../../platform/db/schema.ts';
import { createApiKey } from './create-api-key.ts';

/**
 * The id of the newest unrevoked key of `owner`, creating one (secret discarded, never shown) when
 * the owner has none. Work a person starts outside the HTTP API (the Telegram bot) is recorded
 * under this key, so usage is counted per person.
 */
export async function ensureOwnerApiKey(db: Db, owner: string, label: string): Promise<string> {
  const [live] = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.owner, owner), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  if (live) return live.id;
  return (await createApiKey(db, label, owner)).id;
}
