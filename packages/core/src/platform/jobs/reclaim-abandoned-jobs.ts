import type PgBoss from 'pg-boss';
import { and, eq, lt } from 'drizzle-orm';
import type { Database } from '../db/open-database.ts';
import { jobLeases } from '../db/schema.ts';
import type { ServiceContext } from '../../service-context.ts';
import { failGivenUpPredictions } from './fail-given-up-predictions.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';
import { logEvent } from '../logging/log-event.ts';
import type { TranscribeJobHandler } from './transcribe-job-handler.ts';

/**
 * Finds leases whose heartbeat is older than `staleMs` (their worker died: SIGKILL, lost machine)
 * and fails those jobs through pg-boss, whose retry policy runs them again on any live worker.
 * Safe to run in every worker process at once: a lease is deleted by exactly one of them.
 * @returns the prediction ids reclaimed.
 */
export async function reclaimAbandonedJobs(database: Database, boss: PgBoss, staleMs: number, now = new Date()): Promise<string[]> {
  const stale = await database.db
    .select()
    .from(jobLeases)
    .where(lt(jobLeases.heartbeatAt, new Date(now.getTime() - staleMs)));
  const reclaimed: string[] = [];
  for (const lease of stale) {
    const taken = await database.db
      .delete(jobLeases)
      .where(and(eq(jobLeases.predictionId, lease.predictionId), eq(jobLeases.heartbeatAt, lease.heartbeatAt)))
      .returning({ id: jobLeases.predictionId });
    if (taken.length === 0) continue; // refreshed or reclaimed by another process meanwhile
    const job = await boss.getJobById(TRANSCRIBE_QUEUE, lease.jobId);
    if (job?.state === 'active') await boss.fail(TRANSCRIBE_QUEUE, lease.jobId, { reason: `worker ${lease.workerId} stopped` });
    reclaimed.push(lease.predictionId);
  }
  return reclaimed;
}

/**
 * Every `intervalMs` until the returned function is called: reclaimAbandonedJobs, then
 * failGivenUpPredictions with `failedForGood`, so a prediction whose last try was reclaimed, or
 * expired by pg-boss, ends `failed` within one interval instead of staying `processing`. Intervals in ms.
 */
export function startJobReclaimer(
  ctx: Pick<ServiceContext, 'database' | 'boss' | 'logger'>,
  options: { intervalMs: number; staleMs: number },
  failedForGood: TranscribeJobHandler['failedForGood'],
): () => void {
  const tick = async () => {
    await reclaimAbandonedJobs(ctx.database, ctx.boss, options.staleMs).then(
      (ids) =>
        ids.length > 0 && logEvent(ctx, 'warn', 'worker', `reclaimed abandoned predictions: ${ids.join(', ')}`, { predictions: ids }),
      (error: Error) => logEvent(ctx, 'error', 'worker', `reclaim failed: ${error.message}`),
    );
    await failGivenUpPredictions(ctx, failedForGood).then(
      (ids) =>
        ids.length > 0 &&
        logEvent(ctx, 'warn', 'worker', `gave up on predictions interrupted on every try: ${ids.join(', ')}`, { predictions: ids }),
      (error: Error) => logEvent(ctx, 'error', 'worker', `checking given-up jobs failed: ${error.message}`),
    );
  };
  const timer = setInterval(tick, options.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
