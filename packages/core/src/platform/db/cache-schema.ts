/**
 * Tables of the transcript cache and the usage ledger (spec 2.6). Re-exported by schema.ts.
 */
import { index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { Transcript } from '../../contract/output/transcript-model.ts';

/**
 * Stored downloads, keyed by cache namespace and link (spec 2.6.1, 2.6.6). `id` is the internal file
 * handle: a new download gets a new one (spec 2.6.5). Never returned to clients (spec 2.1).
 */
export const mediaCache = pgTable(
  'media_cache',
  {
    id: text('id').primaryKey(),
    namespace: text('namespace').notNull(),
    link: text('link').notNull(),
    /** Internal path of the stored download. */
    path: text('path').notNull(),
    bytes: integer('bytes').notNull(),
    /**
     * The user whose download stored it (the key's owner, e.g. `telegram:42`, else the key id; as
     * billing's payingUserOf). Anyone else is given the entry only while the link still answers
     * (resources/predictions/run/produce-transcript.ts). Null for entries stored before this column: everyone is checked.
     */
    fetchedBy: text('fetched_by'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [uniqueIndex('media_cache_namespace_link_idx').on(t.namespace, t.link), index('media_cache_expires_idx').on(t.expiresAt)],
);

/**
 * The latest transcript variant of a stored download (spec 2.6.4: only the latest is kept), with the
 * recognition parameters it was made with. `version` grows with every new variant, so a reader that
 * saw one version and finds another knows a concurrent request changed it (spec 7 `cache_changed`).
 */
export const transcriptCache = pgTable('transcript_cache', {
  mediaId: text('media_id')
    .primaryKey()
    .references(() => mediaCache.id, { onDelete: 'cascade' }),
  /** Recognition parameters (speakers, language, domain, efficiency, multilingual, prompt, hotwords), or null. */
  params: jsonb('params'),
  transcript: jsonb('transcript').$type<Transcript>().notNull(),
  version: integer('version').notNull().default(1),
  audioSeconds: real('audio_seconds').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** One row per charge decision of a prediction (spec 2.6.2–3): who, what file, how much, why. */
export const usageLedger = pgTable(
  'usage_ledger',
  {
    id: text('id').primaryKey(),
    apiKeyId: text('api_key_id').notNull(),
    /** The paying person: the key's owner (e.g. `telegram:42`), else the key id. */
    userId: text('user_id').notNull(),
    predictionId: text('prediction_id').notNull().unique(),
    /** Internal file handle (media_cache.id), or null for uploads that are not cached. */
    mediaId: text('media_id'),
    audioSeconds: real('audio_seconds').notNull(),
    /** Price of this charge in the operator's currency (PRICE_PER_MINUTE × minutes); 0 for free repeats. */
    amount: real('amount').notNull(),
    /** `recognition`, `cached_transcript` (charged: not yet paid by this user) or `free_repeat`. */
    reason: text('reason').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('usage_ledger_user_media_idx').on(t.userId, t.mediaId, t.createdAt),
    index('usage_ledger_key_idx').on(t.apiKeyId, t.createdAt),
  ],
);

export type MediaCacheRow = typeof mediaCache.$inferSelect;
export type TranscriptCacheRow = typeof transcriptCache.$inferSelect;
export type UsageLedgerRow = typeof usageLedger.$inferSelect;
