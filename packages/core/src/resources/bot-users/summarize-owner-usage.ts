import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys, predictions } from '../../platform/db/schema.ts';

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
