/** Leases of running jobs (crash safety across worker processes). Re-exported by schema.ts. */
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * One row per prediction a worker is running: the pg-boss job id, the worker process, and a
 * heartbeat refreshed while it runs. A lease whose heartbeat stopped belongs to a dead worker:
 * its job is failed through pg-boss so it is retried (platform/jobs/reclaim-abandoned-jobs.ts).
 */
export const jobLeases = pgTable('job_leases', {
  predictionId: text('prediction_id').primaryKey(),
  jobId: text('job_id').notNull(),
  workerId: text('worker_id').notNull(),
  heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type JobLeaseRow = typeof jobLeases.$inferSelect;
