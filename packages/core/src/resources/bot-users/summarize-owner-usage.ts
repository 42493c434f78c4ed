import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys, predictions, usageLedger } from '../../platform/db/schema.ts';

export interface NamespaceUsage {
  /** Cache namespace (spec 2.6.6): `api`, `bot` or `portal`. */
  namespace: string;
  /** Predictions created. */
  predictions: number;
  /** Of those, how many succeeded. */
  succeeded: number;
  /** Seconds of audio in them (probed length), summed. */
  audioSeconds: number;
}

/**
 * Usage of one person across all their keys (revoked ones too), by namespace, sorted by
 * namespace name. An owner without predictions gets an empty list.
 */
export async function summarizeOwnerUsage(db: Db, owner: string): Promise<NamespaceUsage[]> {
  const rows = await db
    .select({
      namespace: predictions.namespace,
      predictions: sql<number>`count(*)::int`,
      succeeded: sql<number>`(count(*) filter (where ${predictions.status} = 'succeeded'))::int`,
      audioSeconds: sql<number>`coalesce(sum(${predictions.audioSeconds}), 0)::float8`,
    })
    .from(predictions)
    .innerJoin(apiKeys, eq(apiKeys.id, predictions.apiKeyId))
    .where(eq(apiKeys.owner, owner))
    .groupBy(predictions.namespace)
    .orderBy(predictions.namespace);
  return rows.map((row) => ({
    namespace: row.namespace,
    predictions: Number(row.predictions),
    succeeded: Number(row.succeeded),
    audioSeconds: Number(row.audioSeconds),
  }));
}

/** Recordings and their audio seconds. */
export interface CountedAudio {
  count: number;
  audioSeconds: number;
}

/** What a person was not charged for inside the window, and why. */
export interface UnchargedUsage {
  /** Predictions canceled (by the person, or before they ran); their probed seconds (0 when canceled before the probe). */
  canceled: CountedAudio;
  /** Predictions that failed. */
  failed: CountedAudio;
  /** Predictions whose transcript came from the cache for a file the person already paid for (spec 2.6.2 free repeats). */
  freeRepeats: CountedAudio;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Why some of a person's audio was not charged in the last `windowDays` days (the same window as
 * summarizeUsage): canceled and failed predictions across all the person's keys (docs/caching-and-billing.md:
 * neither is charged) and free repeats from the usage ledger (its `user_id` is the owner).
 * @throws Error from the database.
 */
export async function summarizeOwnerUncharged(db: Db, owner: string, windowDays: number, now = new Date()): Promise<UnchargedUsage> {
  const since = new Date(now.getTime() - windowDays * DAY_MS);
  const ended = await db
    .select({
      status: predictions.status,
      count: sql<number>`count(*)::int`,
      audioSeconds: sql<number>`coalesce(sum(${predictions.audioSeconds}), 0)::float8`,
    })
    .from(predictions)
    .innerJoin(apiKeys, eq(apiKeys.id, predictions.apiKeyId))
    .where(and(eq(apiKeys.owner, owner), gt(predictions.createdAt, since), inArray(predictions.status, ['canceled', 'failed'])))
    .groupBy(predictions.status);
  const [free] = await db
    .select({ count: sql<number>`count(*)::int`, audioSeconds: sql<number>`coalesce(sum(${usageLedger.audioSeconds}), 0)::float8` })
    .from(usageLedger)
    .where(and(eq(usageLedger.userId, owner), eq(usageLedger.reason, 'free_repeat'), gt(usageLedger.createdAt, since)));
  const of = (status: string): CountedAudio => {
    const row = ended.find((entry) => entry.status === status);
    return { count: Number(row?.count ?? 0), audioSeconds: Number(row?.audioSeconds ?? 0) };
  };
  return {
    canceled: of('canceled'),
    failed: of('failed'),
    freeRepeats: { count: Number(free?.count ?? 0), audioSeconds: Number(free?.audioSeconds ?? 0) },
  };
}
