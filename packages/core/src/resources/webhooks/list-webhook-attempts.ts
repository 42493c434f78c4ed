import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { webhookAttempts, type WebhookAttemptRow } from '../../platform/db/schema.ts';

/** The delivery log of one prediction: every attempt of every event, oldest first. */
export async function listWebhookAttempts(db: Db, predictionId: string): Promise<WebhookAttemptRow[]> {
  return db.select().from(webhookAttempts).where(eq(webhookAttempts.predictionId, predictionId)).orderBy(asc(webhookAttempts.createdAt));
}
