import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Request counts per API key and minute, shared by every API process on one database, so a key's
 * limit holds however many processes serve it. The layout is the one rate-limiter-flexible's
 * RateLimiterDrizzle store reads and writes (its docs: "Drizzle"): `key`, `points` used in the
 * current window, and when that window `expire`s. Expired rows are removed by the store itself.
 */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  points: integer('points').notNull().default(0),
  expire: timestamp('expire', { withTimezone: true, mode: 'date' }),
});
