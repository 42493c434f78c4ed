import { and, eq, sql } from 'drizzle-orm';
import type { ServiceContext } from '../../service-context.ts';
import { predictions } from '../../platform/db/schema.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import { stampLogLine } from './append-prediction-log.ts';
import { announcePredictionChange } from './announce-prediction-change.ts';

export type PredictionOutcome =
  | { status: 'succeeded'; output: unknown; transcript: Transcript; results: unknown }
  | { status: 'failed'; error: string; errorCode: string };

/**
 * Moves a `processing` prediction to its terminal state once (spec 3): a prediction that already
 * ended (e.g. canceled meanwhile) is left as it is. The last log line (`succeeded` or
 * `failed: <error>`) is written in the same update, so a finished row never changes afterwards
 * (the API caches its answer). When this call ended it, the change is announced
 * (announce-prediction-change.ts: every cached answer of it is dropped before this returns) and `log-appended` is published on
 * `ctx.predictionEvents` without waiting (webhook `logs` with the last line); `ended` is the
 * caller's to publish, after its own end-of-run steps.
 * @returns whether this call ended it.
 * @throws the database's error when the update fails.
 */
export async function finishPrediction(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'> & Partial<Pick<ServiceContext, 'logger'>>,
  id: string,
  outcome: PredictionOutcome,
  startedAt: Date,
): Promise<boolean> {
  const completedAt = new Date();
  const lastLine = stampLogLine(outcome.status === 'succeeded' ? 'succeeded' : `failed: ${outcome.error}`, completedAt);
  const common = {
    completedAt,
    predictTime: (completedAt.getTime() - startedAt.getTime()) / 1000,
    logs: sql`${predictions.logs} || ${lastLine}`,
  };
  const values =
    outcome.status === 'succeeded'
      ? { ...common, status: 'succeeded', output: outcome.output, transcript: outcome.transcript, results: outcome.results }
      : { ...common, status: 'failed', error: outcome.error, errorCode: outcome.errorCode };
  const ended = await ctx.database.db
    .update(predictions)
    .set(values)
    .where(and(eq(predictions.id, id), eq(predictions.status, 'processing')))
    .returning({ id: predictions.id });
  if (ended.length > 0) await announcePredictionChange(ctx, id);
  if (ended.length > 0) void ctx.predictionEvents.publish({ type: 'log-appended', predictionId: id });
  return ended.length > 0;
}
