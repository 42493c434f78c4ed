import { eq } from 'drizzle-orm';
import type { Db } from '../db/open-database.ts';
import { jobLeases } from '../db/schema.ts';
import { logEvent } from '../logging/log-event.ts';
import type { ServiceContext } from '../../service-context.ts';

/**
 * Takes the lease of a running prediction for this worker and refreshes its heartbeat every
 * `heartbeatMs` until released, so other processes can tell a live run from an abandoned one.
 * Returns the release function (deletes the lease). A failed heartbeat (database away) is logged
 * through `ctx.logger` (component `worker`) and tried again at the next beat: the lease only goes
 * stale after JOB_LEASE_STALE_MS without one.
 */
export async function holdJobLease(
  db: Db,
  lease: { predictionId: string; jobId: string; workerId: string },
  heartbeatMs: number,
  ctx: Pick<ServiceContext, 'logger'>,
): Promise<() => Promise<void>> {
  await db
    .insert(jobLeases)
    .values({ ...lease, heartbeatAt: new Date() })
    .onConflictDoUpdate({ target: jobLeases.predictionId, set: { jobId: lease.jobId, workerId: lease.workerId, heartbeatAt: new Date() } });
  const timer = setInterval(() => {
    db.update(jobLeases)
      .set({ heartbeatAt: new Date() })
      .where(eq(jobLeases.predictionId, lease.predictionId))
      .catch((error: Error) => logEvent(ctx, 'warn', 'worker', `heartbeat failed: ${error.message}`, { prediction: lease.predictionId }));
  }, heartbeatMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await db.delete(jobLeases).where(eq(jobLeases.predictionId, lease.predictionId));
  };
}
