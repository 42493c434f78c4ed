/**
 * The drizzle schema of the service: one schema for PostgreSQL and PGlite alike.
 * Migrations in `drizzle/` are generated from this file with `npm run db:generate`.
 */
import { boolean, doublePrecision, index, integer, json, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { PredictionInput } from '../../contract/validation/prediction-input.ts';
import type { PredictionSource } from '../storage/prediction-source.ts';

/** API keys (spec 5). Only the SHA-256 hash of a key is stored; `prefix` is shown in listings. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    label: text('label').notNull(),
    /** First characters of the key, safe to show (`tsk_AbCd…`). */
    prefix: text('prefix').notNull(),
    /** Hex SHA-256 of the whole key. */
    hash: text('hash').notNull().unique(),
    /** Who the key belongs to, e.g. `telegram:12345`; null for keys made by the operator's CLI. */
    owner: text('owner'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The key stops working at this time (reissue sets it a grace period ahead, spec 5.3). */
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('api_keys_owner_idx').on(t.owner)],
);

/** Predictions (spec 2.1, 3). `source` holds internal file handles and is never returned (spec 2.1). */
export const predictions = pgTable(
  'predictions',
  {
    id: text('id').primaryKey(),
    apiKeyId: text('api_key_id')
      .notNull()
      .references(() => apiKeys.id),
    /** Cache namespace (spec 2.6.6): `api`, `bot` or `portal`. */
    namespace: text('namespace').notNull().default('api'),
    status: text('status').notNull(),
    /**
     * The input as shown to the client (a `data:` URI is shortened). `json`, not `jsonb`, here and in
     * `output` and `results`: PostgreSQL keeps a `json` value's text as written, so members come back
     * in the documented order (docs/formats.md); `jsonb` reorders them (docs: "JSON Types").
     */
    input: json('input').notNull(),
    /** The validated input the worker runs with. */
    params: jsonb('params').$type<PredictionInput>().notNull(),
    /** Internal: where the recording is (`{kind:'link',url}` or `{kind:'upload',path}`). Never returned. */
    source: jsonb('source').$type<PredictionSource>().notNull(),
    /** Value of `X-Service-Output-Transformers` sent on create, or null (spec 4.4). */
    outputTransformers: text('output_transformers'),
    /** Legacy interface output format (spec 9) when created through it, else null. */
    legacyFormat: text('legacy_format'),
    /** Output in the default form (no transformer header), stored when the prediction succeeds. */
    output: json('output'),
    /** The transcript model the output was rendered from, once it succeeded. */
    transcript: jsonb('transcript').$type<Transcript>(),
    /** Post-processing results by type (spec 2.3.2), or null. */
    results: json('results'),
    /**
     * Speakers renamed in the portal (docs/portal.md, "Speakers"): transcript label → name shown in the
     * portal's page and downloads of this prediction; null when none was renamed. The API's output is unchanged.
     */
    speakerNames: jsonb('speaker_names').$type<Record<string, string>>(),
    error: text('error'),
    errorCode: text('error_code'),
    logs: text('logs').notNull().default(''),
    /** Audio length in seconds, once probed. */
    audioSeconds: real('audio_seconds'),
    /** Seconds of work while running (excludes queueing). */
    predictTime: real('predict_time'),
    webhook: text('webhook'),
    webhookEventsFilter: jsonb('webhook_events_filter'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    /** Fair queue: the job's virtual start tag (resources/queue/assign-fair-start-tags.ts), virtual seconds. */
    queueTag: doublePrecision('queue_tag'),
    /** Fair queue: the pg-boss priority its job was queued with (from queueTag; higher is fetched first). */
    queuePriority: integer('queue_priority'),
    /** Fair queue: the cost charged to the key when queued, seconds of audio (the known length, else a default). */
    queueCost: real('queue_cost'),
    /** Seconds of waiting last said in the logs ("Waiting: …"), so it is said again only when it changes a lot. */
    queueLoggedWait: real('queue_logged_wait'),
    /** The estimated start said with it (the estimate's error is measured against `started_at`). */
    queueEstimatedStartAt: timestamp('queue_estimated_start_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('predictions_key_created_idx').on(t.apiKeyId, t.createdAt),
    // The unfinished predictions (the queue's positions and estimates read them): a small part of the table.
    index('predictions_unfinished_idx')
      .on(t.queuePriority, t.createdAt)
      .where(sql`status = 'processing'`),
  ],
);

/**
 * Per-person settings of the Telegram bot: what the bot sends when a recording arrives.
 * One row per Telegram user, made on the first save; a missing row means the defaults.
 */
export const botUsers = pgTable('bot_users', {
  /** Telegram user id as decimal text (ids exceed 32 bits); the person's keys have owner `telegram:<id>`. */
  telegramId: text('telegram_id').primaryKey(),
  /** Recognition language code (spec 2.5), or null to let the engine choose. */
  language: text('language'),
  /** How the transcript is delivered: `messages`, `txt` or `srt` (apps/bot). */
  outputFormat: text('output_format').notNull().default('messages'),
  /** Post-processing types (spec 2.4) run after every transcript. */
  postProcess: jsonb('post_process').$type<string[]>().notNull().default([]),
  /** Speaker count hint (spec 2.2 `speakers`, >= 1), or null. */
  speakers: integer('speakers'),
  /** Whether the person's recordings look for the voices they named (docs/speakers.md): `known_voices: true` on their predictions. */
  knownVoices: boolean('known_voices').notNull().default(true),
  /** Language of the bot's own texts chosen with /language (`en`, `ru`), or null: the person's Telegram language. */
  uiLocale: text('ui_locale'),
  /** The person's name as Telegram gave it (first and last name) when they last asked for a portal link; the portal greets them with it. */
  displayName: text('display_name'),
  /** Their Telegram `language_code` (IETF tag) at that moment; the portal speaks the bot's language from it when no /language was chosen. */
  telegramLanguage: text('telegram_language'),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/**
 * Files uploaded with `POST /v1/files` (Replicate's files API, replicate-compat.md 3 and 10.7).
 * A file belongs to one key and expires (docs/api.md); `path` is internal and never returned.
 */
export const files = pgTable(
  'files',
  {
    id: text('id').primaryKey(),
    apiKeyId: text('api_key_id')
      .notNull()
      .references(() => apiKeys.id),
    /** File name as uploaded (the multipart part's filename). */
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    /** Size in bytes (at most MAX_MEDIA_BYTES, so it fits an integer). */
    size: integer('size').notNull(),
    /** Hex SHA-256 of the content. */
    sha256: text('sha256').notNull(),
    /** The user's `metadata` JSON object. */
    metadata: jsonb('metadata').notNull(),
    /** Internal: where the content is stored under DATA_DIR. Never returned. */
    path: text('path').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('files_key_created_idx').on(t.apiKeyId, t.createdAt), index('files_expires_idx').on(t.expiresAt)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type PredictionRow = typeof predictions.$inferSelect;
export type FileRow = typeof files.$inferSelect;
export type BotUserRow = typeof botUsers.$inferSelect;
export * from './cache-schema.ts';
export * from './job-schema.ts';
export * from './webhook-schema.ts';
export * from './portal-schema.ts';
export * from './rate-limit-schema.ts';
export * from './bot-schema.ts';
export * from './queue-schema.ts';
export * from './voice-schema.ts';
