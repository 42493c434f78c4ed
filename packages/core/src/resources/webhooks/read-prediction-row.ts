import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';

/** Reads a prediction by id alone (deliveries run outside any request, so no key check), or null. */
export async function readPredictionRow(db: Db, id: string): Promise<PredictionRow | null> {
  const [row] = await db.select().from(predictions).where(eq(predictions.id, id)).limit(1);
  return row ?? null;
}
