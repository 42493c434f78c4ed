import { PREDICTION_BROADCAST, logEvent, watchBroadcast, type ServiceContext } from '@transcribe/core';
import type { PredictionBodyCache } from './prediction-body-cache.ts';

export interface PredictionChangeWatch {
  /** Ends the subscriptions; the cache stops trusting unfinished answers. */
  stop(): Promise<void>;
}

/**
 * Keeps `cache`'s unfinished answers exact, so polls of running predictions are answered from memory
 * (spec 4.3; the clients poll every 0.5–1 s while a prediction runs):
 * - every write in this process publishes `changed` on `ctx.predictionEvents` before it returns
 *   (core announce-prediction-change.ts), which drops that prediction's answers here;
 * - on PostgreSQL, writes of other processes (workers) arrive on the prediction-change channel, a
 *   confirmed broadcast (core platform/db/watch-broadcast.ts): the answers are dropped, then the
 *   writer is told, and it returns only then. While the channel is not known to work (its
 *   heartbeat ping, `heartbeatMs`, did not come back) the cache serves no unfinished answer; every
 *   one is dropped when it is back.
 * On PGlite every writer is in this process, so the in-process events are enough.
 * @throws Error from the driver when the first subscription cannot be made.
 */
export async function watchPredictionChanges(
  ctx: ServiceContext,
  cache: PredictionBodyCache,
  options: { heartbeatMs?: number } = {},
): Promise<PredictionChangeWatch> {
  const unsubscribe = ctx.predictionEvents.subscribe((event) => {
    if (event.type === 'changed') cache.forget([event.predictionId]);
  });
  if (ctx.database.kind !== 'postgres') {
    cache.trustUnfinished = true;
    return {
      async stop() {
        unsubscribe();
        cache.trustUnfinished = false;
      },
    };
  }
  const watch = await watchBroadcast(
    ctx.database,
    PREDICTION_BROADCAST,
    {
      onBody: (id) => cache.forget([id]),
      onUp: () => void (cache.trustUnfinished = true),
      onDown: () => void (cache.trustUnfinished = false),
    },
    {
      heartbeatMs: options.heartbeatMs,
      log: (level, message) => logEvent(ctx, level, 'predictions', message),
      messages: {
        down: (reason) =>
          `the prediction-change channel is down (${reason}): polls of unfinished predictions read the database until it is back`,
        back: 'the prediction-change channel is back: polls of unfinished predictions are answered from memory again',
        relistened: 'the prediction-change channel lost its connection and re-listened',
      },
    },
  );
  return {
    async stop() {
      unsubscribe();
      await watch.stop();
    },
  };
}
