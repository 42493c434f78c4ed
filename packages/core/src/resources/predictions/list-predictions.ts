import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';
import { beyondCursor, decodePageCursor, PAGE_SIZE, toPage, type Page } from './page-cursor.ts';

/**
 * One page of a key's predictions, newest first (`GET /v1/predictions`, replicate-compat.md 3 and 8):
 * at most `pageSize` (100) rows and opaque cursors for the older (`next`) and newer (`previous`)
 * pages. Only the key's own predictions are listed.
 * @param cursor the `cursor` query parameter, or null/undefined for the newest page.
 * @throws AppError `invalid_input` (param `cursor`) for a cursor this service did not make.
 */
export async function listPredictions(db: Db, apiKeyId: string, cursorParam: unknown, pageSize = PAGE_SIZE): Promise<Page<PredictionRow>> {
  const cursor = decodePageCursor(cursorParam);
  const own = eq(predictions.apiKeyId, apiKeyId);
  const where = cursor ? and(own, beyondCursor(predictions, predictions, cursor, apiKeyId)) : own;
  const order =
    cursor?.direction === 'previous'
      ? [asc(predictions.createdAt), asc(predictions.id)]
      : [desc(predictions.createdAt), desc(predictions.id)];
  const fetched = await db
    .select()
    .from(predictions)
    .where(where)
    .orderBy(...order)
    .limit(pageSize + 1);
  return toPage(fetched, cursor, pageSize);
}
