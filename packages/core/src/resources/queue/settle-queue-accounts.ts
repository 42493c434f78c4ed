import type { ServiceContext } from '../../service-context.ts';
import { logEvent } from '../../platform/logging/log-event.ts';

/**
 * Weight kept by the earlier recognitions each time one more is counted in `engine_timings` (an
 * exponentially weighted moving fit: about the last 20 recognitions count, so one slow file does not
 * make every estimate jump, while a changed machine is learnt within some twenty files).
 */
export const ENGINE_TIMING_DECAY = 0.95;

/**
 * After a prediction ended in a worker: (1) settles its key's fair-queue charge to what it really
 * cost, seconds of audio recognised (0 when the transcript came from the cache or nothing was
 * recognised), in place of the cost charged when it was queued (assign-fair-start-tags.ts), so the
 * key's next jobs are ordered by the recognition time it really had (deficit accounting); (2) when it
 * succeeded with a recognition, adds its (audio seconds, work seconds) to the engine's moving linear
 * fit in `engine_timings` (estimate-queue-places.ts). Never throws: a failure is logged as a warning
 * (the prediction has ended either way; only the order of later jobs and the estimates lose it).
 */
export async function settleQueueAccounts(
  ctx: Pick<ServiceContext, 'database' | 'engine' | 'logger'>,
  predictionId: string,
  fromCache: boolean,
): Promise<void> {
  try {
    await ctx.database.executeSql(
      `UPDATE fair_share_keys k
          SET last_finish = k.last_finish + (CASE WHEN $2::boolean THEN 0 ELSE coalesce(p.audio_seconds, 0) END - p.queue_cost)
         FROM predictions p
        WHERE p.id = $1 AND k.key = p.api_key_id AND p.queue_cost IS NOT NULL`,
      [predictionId, fromCache],
    );
    if (fromCache) return;
    await ctx.database.executeSql(
      `INSERT INTO engine_timings AS t (engine, weight, sum_x, sum_y, sum_xx, sum_xy, updated_at)
         SELECT $2, 1, p.audio_seconds, p.predict_time, p.audio_seconds * p.audio_seconds, p.audio_seconds * p.predict_time, now()
           FROM predictions p
          WHERE p.id = $1 AND p.status = 'succeeded' AND p.audio_seconds > 0 AND p.predict_time IS NOT NULL
       ON CONFLICT (engine) DO UPDATE SET
         weight = t.weight * $3 + 1,
         sum_x = t.sum_x * $3 + excluded.sum_x,
         sum_y = t.sum_y * $3 + excluded.sum_y,
         sum_xx = t.sum_xx * $3 + excluded.sum_xx,
         sum_xy = t.sum_xy * $3 + excluded.sum_xy,
         updated_at = now()`,
      [predictionId, ctx.engine.name, ENGINE_TIMING_DECAY],
    );
  } catch (error) {
    logEvent(ctx, 'warn', 'queue', `could not settle the queue accounts of prediction ${predictionId}: ${(error as Error).message}`, {
      prediction: predictionId,
    });
  }
}
