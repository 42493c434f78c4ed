import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ServiceContext } from '../../service-context.ts';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';
import { stampLogLine } from './append-prediction-log.ts';
import { findPrediction } from './find-prediction.ts';
import { announcePredictionChange } from './announce-prediction-change.ts';

/**
 * Cancels a key's prediction (`POST /v1/predictions/{id}/cancel`, replicate-compat.md 8 and 10.15):
 * a `starting` or `processing` prediction becomes `canceled` (terminal, completed now, its last log
 * line `canceled` written in the same update; the worker notices within about a second and stops,
 * and never changes it again: finishPrediction only ends rows still `processing` and
 * appendPredictionLog only writes to unfinished rows, so the `completed` webhook sent here equals
 * every later GET). A prediction that already ended is returned unchanged. When this call canceled
 * it, the change is announced (announce-prediction-change.ts: every cached answer of it is dropped
 * before this returns) and `ended` is published on `ctx.predictionEvents` and awaited (the webhook worker enqueues `completed`).
 * @returns the row after the call.
 * @throws AppError `not_found` when the key has no such prediction.
 */
export async function cancelPrediction(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'> & Partial<Pick<ServiceContext, 'logger'>>,
  id: string,
  apiKeyId: string,
): Promise<PredictionRow> {
  const { db } = ctx.database;
  const completedAt = new Date();
  const [canceled] = await db
    .update(predictions)
    .set({ status: 'canceled', completedAt, logs: sql`${predictions.logs} || ${stampLogLine('canceled', completedAt)}` })
    .where(and(eq(predictions.id, id), eq(predictions.apiKeyId, apiKeyId), inArray(predictions.status, ['starting', 'processing'])))
    .returning();
  if (canceled) await announcePredictionChange(ctx, id);
  if (canceled) await ctx.predictionEvents.publish({ type: 'ended', predictionId: id }); // webhook `completed`
  return canceled ?? findPrediction(db, id, apiKeyId);
}
