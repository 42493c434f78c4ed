import { doublePrecision, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { VoiceEmbeddings } from '../../contract/output/voice-embeddings.ts';

/**
 * The voice registry (docs/speakers.md): named voices of an account, each stored as speaker embeddings
 * only, never as audio (voiceprints are biometric data: deleting the row deletes everything kept of the
 * voice). `account` is the owner of the key that enrolled it (`telegram:<id>`, `portal:<name>`), or
 * `key:<key id>` for keys without an owner, so an owner's reissued key keeps the voices and no other
 * account sees them.
 */
export const voices = pgTable(
  'voices',
  {
    id: text('id').primaryKey(),
    account: text('account').notNull(),
    /** The name given, trimmed; unique within the account. */
    name: text('name').notNull(),
    /** Embeddings by kind (`builtin`, or a sherpa-onnx model's name): seconds-weighted sums of unit vectors. */
    embeddings: jsonb('embeddings').$type<VoiceEmbeddings>().notNull(),
    /** Seconds of speech enrolled, over all samples. */
    speechSeconds: doublePrecision('speech_seconds').notNull(),
    /** Samples enrolled. */
    samples: integer('samples').notNull(),
    /**
     * Enrolled from a transcript in the portal ("remember this voice"): the prediction whose stored
     * recording the voice was measured from, and the spans of it used (seconds). A reference only, no
     * audio: the portal cuts a sample excerpt from that recording on demand while it is still stored
     * (docs/speakers.md, "Privacy"). Null for voices enrolled with samples (their audio is not kept).
     */
    sourcePredictionId: text('source_prediction_id'),
    sourceSpans: jsonb('source_spans').$type<VoiceSourceSpan[]>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('voices_account_name_idx').on(t.account, t.name), index('voices_account_created_idx').on(t.account, t.createdAt)],
);

export type VoiceRow = typeof voices.$inferSelect;

/** A stretch of a recording a voice was enrolled from, seconds from its start. */
export interface VoiceSourceSpan {
  start: number;
  end: number;
}
