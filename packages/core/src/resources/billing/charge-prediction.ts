import { randomBytes } from 'node:crypto';
import { and, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys, usageLedger } from '../../platform/db/schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface ChargeRequest {
  predictionId: string;
  apiKeyId: string;
  /** Internal file handle of the stored download, or null for an upload that is not cached. */
  mediaId: string | null;
  audioSeconds: number;
  /** True when the transcript came ready from the cache and no recognition ran. */
  usedCachedTranscript: boolean;
  /** Price of one audio minute (0: usage is recorded, nothing is priced). */
  pricePerMinute: number;
  /** Free-repeat window in days (spec 2.6.1: 27 by default). */
  windowDays: number;
}

export type ChargeReason = 'recognition' | 'cached_transcript' | 'free_repeat';

/** The person who pays: a key's owner (keys reissued by the bot or portal share it), else the key. */
export async function payingUserOf(db: Db, apiKeyId: string): Promise<string> {
  const [key] = await db.select({ owner: apiKeys.owner }).from(apiKeys).where(eq(apiKeys.id, apiKeyId));
  return key?.owner ?? apiKeyId;
}

/**
 * Decides and records the charge of a prediction (spec 2.6.2–3): free only when the transcript came
 * from the cache, no recognition ran, and the same user already paid for this file inside the window;
 * otherwise the normal charge, even for the same user and link when recognition ran. One row per
 * prediction: a retried job never charges twice. Returns the reason recorded.
 */
export async function chargePrediction(db: Db, request: ChargeRequest, now = new Date()): Promise<ChargeReason> {
  const userId = await payingUserOf(db, request.apiKeyId);
  let reason: ChargeReason = request.usedCachedTranscript ? 'cached_transcript' : 'recognition';
  if (request.usedCachedTranscript && request.mediaId && (await hasPaidForFile(db, userId, request.mediaId, request.windowDays, now))) {
    reason = 'free_repeat';
  }
  const amount = reason === 'free_repeat' ? 0 : (request.audioSeconds / 60) * request.pricePerMinute;
  await db
    .insert(usageLedger)
    .values({
      id: `chg_${randomBytes(10).toString('hex')}`,
      apiKeyId: request.apiKeyId,
      userId,
      predictionId: request.predictionId,
      mediaId: request.mediaId,
      audioSeconds: request.audioSeconds,
      amount: Math.round(amount * 1e6) / 1e6,
      reason,
    })
    .onConflictDoNothing({ target: usageLedger.predictionId });
  return reason;
}

async function hasPaidForFile(db: Db, userId: string, mediaId: string, windowDays: number, now: Date): Promise<boolean> {
  const since = new Date(now.getTime() - windowDays * DAY_MS);
  const rows = await db
    .select({ id: usageLedger.id })
    .from(usageLedger)
    .where(
      and(
        eq(usageLedger.userId, userId),
        eq(usageLedger.mediaId, mediaId),
        inArray(usageLedger.reason, ['recognition', 'cached_transcript']),
        gt(usageLedger.createdAt, since),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
