import { eq } from 'drizzle-orm';
import type { Db } from '../db/open-database.ts';
import { jobLeases } from '../db/schema.ts';

/**
 * Takes the lease of a running prediction for this worker and refreshes its heartbeat every
 * `heartbeatMs` until released, so other processes can tell a live run from an abandoned one.
 * Returns the release function (deletes the lease).
 */
export async function holdJobLease(
  db: Db,
  lease: { predictionId: string; jobId: string; workerId: string },
  heartbeatMs: number,
): Promise<() => Promise<void>> {
  await db
    .insert(jobLeases)
    .values({ ...lease, heartbeatAt: new Date() })
    .onConflictDoUpdate({ target: jobLeases.predictionId, set: { jobId: lease.jobId, workerId: lease.workerId, heartbeatAt: new Date() } });
  const timer = setInterval(() => {
    db.update(jobLeases)
      .set({ heartbeatAt: new Date() })
      .where(eq(jobLeases.predictionId, lease.predictionId))
      .catch((error: Error) => console.error('[worker] heartbeat failed:', error.message));
  }, heartbeatMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await db.delete(jobLeases).where(eq(jobLeases.predictionId, lease.predictionId));
  };
}
