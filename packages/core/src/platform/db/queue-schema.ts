/** The fair order of the transcribe queue and its time estimates. Re-exported by schema.ts. */
import { doublePrecision, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Start-time fair queueing across API keys (resources/queue/assign-fair-start-tags.ts): per key, the
 * virtual finish tag of its last queued job, in virtual seconds (cost units: seconds of audio). A new
 * job of the key starts at the later of this and the virtual clock.
 */
export const fairShareKeys = pgTable('fair_share_keys', {
  key: text('key').primaryKey(),
  lastFinish: doublePrecision('last_finish').notNull().default(0),
});

/**
 * The virtual clock of the fair queue: one row (`id` 1), the largest start tag of a job a worker
 * has started (resources/queue/advance-virtual-clock.ts), virtual seconds. It only grows.
 */
export const fairShareClock = pgTable('fair_share_clock', {
  id: integer('id').primaryKey(),
  virtualTime: doublePrecision('virtual_time').notNull().default(0),
});

/**
 * How long a job takes on this deployment, per recognition engine: exponentially weighted sums of a
 * linear fit `seconds = a + b × audio seconds` over finished recognitions (x = audio seconds, y =
 * work seconds), read by the queue's time estimates (resources/queue/estimate-queue-places.ts).
 */
export const engineTimings = pgTable('engine_timings', {
  engine: text('engine').primaryKey(),
  weight: doublePrecision('weight').notNull().default(0),
  sumX: doublePrecision('sum_x').notNull().default(0),
  sumY: doublePrecision('sum_y').notNull().default(0),
  sumXX: doublePrecision('sum_xx').notNull().default(0),
  sumXY: doublePrecision('sum_xy').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
