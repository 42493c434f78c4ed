import type { Db } from '../../platform/db/open-database.ts';
import type { predictions } from '../../platform/db/schema.ts';
import { assignFairStartTags } from './assign-fair-start-tags.ts';

/** A prediction row about to be inserted, with its audio length when known before it runs. */
export interface FairQueueInsert {
  values: typeof predictions.$inferInsert;
  expectedAudioSeconds?: number | null | undefined;
}

/**
 * The fair-queue place of each new prediction of a create batch (assign-fair-start-tags.ts: start-time
 * fair queueing across API keys), written onto its row: `queueTag`, `queuePriority` (the pg-boss
 * `priority` its transcribe job must be sent with) and `queueCost`. Called by the create path just
 * before the rows and their jobs are inserted (resources/predictions/create-prediction-inserter.ts),
 * inside the same transaction when the insert has one.
 * @returns the inserts in their order, each with a copy of its values carrying the three columns.
 * @throws Error from the database.
 */
export async function placeInFairQueue<T extends FairQueueInsert>(db: Pick<Db, 'insert'>, batch: readonly T[]): Promise<T[]> {
  const places = await assignFairStartTags(
    db,
    batch.map(({ values, expectedAudioSeconds }) => ({ key: values.apiKeyId, audioSeconds: expectedAudioSeconds })),
  );
  return batch.map((insert, i) => ({
    ...insert,
    values: { ...insert.values, queueTag: places[i]!.tag, queuePriority: places[i]!.priority, queueCost: places[i]!.cost },
  }));
}
