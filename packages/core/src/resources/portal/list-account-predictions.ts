import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys, predictions, usageLedger } from '../../platform/db/schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Most rows the usage page lists. */
export const ACCOUNT_PREDICTIONS_LIMIT = 200;

export interface AccountPrediction {
  id: string;
  /** Where it was made (spec 2.6.6): `portal`, `api` or `bot`. */
  namespace: string;
  status: string;
  /** `upload:<file name>`, a link, or `data:` (the validated `audio`). */
  audio: string;
  /** Probed audio length in seconds, or null before it is known. */
  audioSeconds: number | null;
  createdAt: Date;
  /** The charge decision (spec 2.6.2–3), or null while running or when it failed (nothing charged). */
  charge: { reason: string; amount: number; audioSeconds: number } | null;
}

/**
 * Predictions made under any key of `owner` in the last `windowDays` days (the cache window,
 * spec 2.6.1), newest first, at most ACCOUNT_PREDICTIONS_LIMIT, each with its usage-ledger row.
 */
export async function listAccountPredictions(db: Db, owner: string, windowDays: number, now = new Date()): Promise<AccountPrediction[]> {
  const since = new Date(now.getTime() - windowDays * DAY_MS);
  const rows = await db
    .select({ prediction: predictions, charge: usageLedger })
    .from(predictions)
    .innerJoin(apiKeys, eq(apiKeys.id, predictions.apiKeyId))
    .leftJoin(usageLedger, eq(usageLedger.predictionId, predictions.id))
    .where(and(eq(apiKeys.owner, owner), gt(predictions.createdAt, since)))
    .orderBy(desc(predictions.createdAt), desc(predictions.id))
    .limit(ACCOUNT_PREDICTIONS_LIMIT);
  return rows.map(({ prediction, charge }) => ({
    id: prediction.id,
    namespace: prediction.namespace,
    status: prediction.status,
    audio: String(prediction.params.audio ?? ''),
    audioSeconds: prediction.audioSeconds,
    createdAt: prediction.createdAt,
    charge: charge ? { reason: charge.reason, amount: charge.amount, audioSeconds: charge.audioSeconds } : null,
  }));
}
