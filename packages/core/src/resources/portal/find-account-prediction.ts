import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys, predictions, type PredictionRow } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/**
 * One prediction of the signed-in person: made under any of `owner`'s keys (revoked ones too), in
 * any namespace (portal, API or bot). Another person's prediction is reported as missing.
 * @throws AppError `not_found`.
 */
export async function findAccountPrediction(db: Db, id: string, owner: string): Promise<PredictionRow> {
  const [found] = await db
    .select({ prediction: predictions })
    .from(predictions)
    .innerJoin(apiKeys, eq(apiKeys.id, predictions.apiKeyId))
    .where(and(eq(predictions.id, id), eq(apiKeys.owner, owner)))
    .limit(1);
  if (!found) throw new AppError('not_found', `You have no transcription with the id ${id.slice(0, 64)}.`);
  return found.prediction;
}
