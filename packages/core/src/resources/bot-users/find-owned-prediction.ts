import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { apiKeys, predictions, type PredictionRow } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/**
 * Reads one prediction made in `namespace` (spec 2.6.6) under any key of `owner` (e.g.
 * `telegram:42`), whether or not that key was since revoked or reissued. Predictions of other
 * people or of another namespace are reported as missing.
 * @throws AppError `not_found`.
 */
export async function findOwnedPrediction(
  db: Db,
  id: string,
  scope: { owner: string; namespace: 'api' | 'bot' | 'portal' },
): Promise<PredictionRow> {
  const [found] = await db
    .select({ prediction: predictions })
    .from(predictions)
    .innerJoin(apiKeys, eq(apiKeys.id, predictions.apiKeyId))
    .where(and(eq(predictions.id, id), eq(apiKeys.owner, scope.owner), eq(predictions.namespace, scope.namespace)))
    .limit(1);
  if (!found) throw new AppError('not_found', `No ${scope.namespace} prediction with id ${id.slice(0, 64)} exists for you.`);
  return found.prediction;
}
