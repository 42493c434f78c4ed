import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { usageLedger } from '../../platform/db/schema.ts';
import { payingUserOf } from './charge-prediction.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A user's usage in the current window (beyond the spec: `GET …/v1/account`, docs/caching-and-billing.md). */
export interface UsageSummary {
  window_days: number;
  since: string;
  predictions: number;
  /** Seconds of audio the user was charged for (recognition and first uses of cached transcripts). */
  audio_seconds_charged: number;
  amount_charged: number;
  free_repeats: number;
}

/** Sums the ledger rows of the key's paying user inside the window. */
export async function summarizeUsage(db: Db, apiKeyId: string, windowDays: number, now = new Date()): Promise<UsageSummary> {
  const userId = await payingUserOf(db, apiKeyId);
  const since = new Date(now.getTime() - windowDays * DAY_MS);
  const [row] = await db
    .select({
      predictions: sql<number>`count(*)::int`,
      charged: sql<number>`coalesce(sum(case when ${usageLedger.reason} <> 'free_repeat' then ${usageLedger.audioSeconds} else 0 end), 0)::float8`,
      amount: sql<number>`coalesce(sum(${usageLedger.amount}), 0)::float8`,
      free: sql<number>`count(*) filter (where ${usageLedger.reason} = 'free_repeat')::int`,
    })
    .from(usageLedger)
    .where(and(eq(usageLedger.userId, userId), gt(usageLedger.createdAt, since)));
  return {
    window_days: windowDays,
    since: since.toISOString(),
    predictions: Number(row?.predictions ?? 0),
    audio_seconds_charged: Math.round(Number(row?.charged ?? 0) * 1000) / 1000,
    amount_charged: Math.round(Number(row?.amount ?? 0) * 1e6) / 1e6,
    free_repeats: Number(row?.free ?? 0),
  };
}
