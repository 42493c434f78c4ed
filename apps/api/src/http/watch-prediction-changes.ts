import { PREDICTION_CHANGES_CHANNEL, type ServiceContext } from '@transcribe/core';
import type { PredictionBodyCache } from './prediction-body-cache.ts';

export interface PredictionChangeWatch {
  /** Ends the subscriptions. */
  stop(): Promise<void>;
}

/**
 * Drops `cache`'s unfinished answers of a prediction when its row is written (core
 * announce-prediction-change.ts), so polls of running predictions can be answered from memory
 * (spec 4.3; the clients poll every 0.5–1 s while a prediction runs):
 * - a write in this process publishes `changed` on `ctx.predictionEvents` before it returns, so
 *   this process's next poll reads the row;
 * - on PostgreSQL, writes of other processes (workers) arrive as notifications on
 *   PREDICTION_CHANGES_CHANNEL. Nobody waits for them: one read late, or missed while the LISTEN
 *   connection was down, leaves an answer served until its UNFINISHED_ANSWER_TTL_MS runs out
 *   (prediction-body-cache.ts), the bound of that case.
 * On PGlite every writer is in this process, so the in-process events are all there is.
 * @throws Error from the driver when the subscription cannot be made.
 */
export async function watchPredictionChanges(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'>,
  cache: PredictionBodyCache,
): Promise<PredictionChangeWatch> {
  const unsubscribe = ctx.predictionEvents.subscribe((event) => {
    if (event.type === 'changed') cache.forget([event.predictionId]);
  });
  const unlisten =
    ctx.database.kind === 'postgres' ? await ctx.database.listen(PREDICTION_CHANGES_CHANNEL, (id) => cache.forget([id])) : null;
  return {
    async stop() {
      unsubscribe();
      await unlisten?.().catch(() => {});
    },
  };
}
