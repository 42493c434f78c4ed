import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { payingUserOf } from '../billing/charge-prediction.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { webhookSecrets } from '../../platform/db/schema.ts';

/** Prefix of a signing secret (Standard Webhooks; replicate-compat.md 7). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * A new signing secret: `whsec_` + standard, padded base64 of 32 random bytes (standard base64, not
 * base64url: the Python client wants exactly one `_` in the key, the JS client compares padded base64).
 */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/**
 * The signing secret of a key's paying user (a key's owner, else the key id: keys reissued by the
 * bot or portal keep the secret), made and stored on first use (`GET …/v1/webhooks/default/secret`,
 * replicate-compat.md 3 and 7). Safe under concurrent first calls: one secret wins.
 * @returns `whsec_<base64>`.
 */
export async function getWebhookSecret(db: Db, apiKeyId: string): Promise<string> {
  const userId = await payingUserOf(db, apiKeyId);
  const stored = await readSecret(db, userId);
  if (stored) return stored;
  await db.insert(webhookSecrets).values({ userId, secret: newWebhookSecret() }).onConflictDoNothing();
  const made = await readSecret(db, userId);
  if (!made) throw new Error(`webhook secret of ${userId} was not stored`);
  return made;
}

async function readSecret(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ secret: webhookSecrets.secret }).from(webhookSecrets).where(eq(webhookSecrets.userId, userId));
  return row?.secret ?? null;
}
