/**
 * Tables of webhook deliveries (replicate-compat.md 7). Re-exported by schema.ts.
 */
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Signing secrets, one per paying user (a key's owner, else the key id; resources/billing/charge-prediction.ts
 * `payingUserOf`), made on first use. `secret` is `whsec_<standard padded base64 of 32 bytes>`;
 * it must be kept as is because every delivery is signed with it.
 */
export const webhookSecrets = pgTable('webhook_secrets', {
  userId: text('user_id').primaryKey(),
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * The state of the once-only events of a prediction (`start`, `completed`): one row per
 * (prediction, event), made when the event is first due, so it is never sent twice by us and a
 * retry or a re-run after a crash keeps the same `webhookId` (the receiver dedupes on it).
 * `status`: `pending` (due or being retried), `delivered` (a 2xx came back), `failed` (gave up).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    predictionId: text('prediction_id').notNull(),
    event: text('event').notNull(),
    webhookId: text('webhook_id').notNull(),
    status: text('status').notNull().default('pending'),
    /** Attempts made so far. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the first attempt was made: the retry deadline counts from here. */
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true, mode: 'date' }),
    /** When it became `delivered` or `failed`. */
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [primaryKey({ columns: [t.predictionId, t.event] })],
);

/** The delivery log: one row per attempt of any event (status code or error, duration). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    predictionId: text('prediction_id').notNull(),
    event: text('event').notNull(),
    webhookId: text('webhook_id').notNull(),
    /** HTTP status of the receiver's answer, or null when none came. */
    statusCode: integer('status_code'),
    /** Why the attempt failed (network error, timeout, refused address), or null. */
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('webhook_attempts_prediction_idx').on(t.predictionId, t.createdAt)],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
