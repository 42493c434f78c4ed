import type { PredictionRow } from '../../platform/db/schema.ts';
import type { ServiceContext } from '../../service-context.ts';
import { advanceVirtualClock } from './advance-virtual-clock.ts';

/**
 * What the fair queue does when a worker has just set a prediction's `started_at`: moves the
 * virtual clock to its start tag (advance-virtual-clock.ts), and reports the wait (creation to start)
 * and the error of the estimated start its logs last said (`queue_estimated_start_at`) to
 * ctx.metrics.queueStarted.
 * @param row the prediction as read before its start was written; `startedAt` the start written.
 * @throws Error from the database (the clock's upsert).
 */
export async function noteJobStarted(
  ctx: Pick<ServiceContext, 'database' | 'engine' | 'metrics'>,
  row: Pick<PredictionRow, 'queueTag' | 'createdAt' | 'queueEstimatedStartAt'>,
  startedAt: Date,
): Promise<void> {
  await advanceVirtualClock(ctx.database, row.queueTag);
  ctx.metrics?.queueStarted?.({
    engine: ctx.engine.name,
    waitSeconds: Math.max(0, (startedAt.getTime() - row.createdAt.getTime()) / 1000),
    estimateErrorSeconds: row.queueEstimatedStartAt ? (startedAt.getTime() - row.queueEstimatedStartAt.getTime()) / 1000 : null,
  });
}
