import { and, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';

/**
 * Reads one prediction of one key. Another key's prediction is reported as missing, never as
 * forbidden, so ids of others cannot be probed (spec 5).
 * @throws AppError `not_found`.
 */
export async function findPrediction(db: Db, id: string, apiKeyId: string): Promise<PredictionRow> {
  const [row] = await db
    .select()
    .from(predictions)
    .where(and(eq(predictions.id, id), eq(predictions.apiKeyId, apiKeyId)))
    .limit(1);
  if (!row) throw new AppError('not_found', `No prediction with id ${id.slice(0, 64)} exists for this API key.`);
  return row;
}
