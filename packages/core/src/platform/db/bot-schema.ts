import { bigint, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Where the Telegram bot answers each recording it turned into a prediction: the chat, the
 * message holding the recording, the status message it edits and who asked. Written in the same
 * moment the prediction is made, so a bot restarted while the prediction waits or runs still
 * knows where the result goes; `deliveredAt` is set once the result (or its failure) was shown,
 * so a finished-but-undelivered prediction is delivered on the next start.
 */
export const botDeliveries = pgTable(
  'bot_deliveries',
  {
    /** The prediction (predictions.id) made of the recording. */
    predictionId: text('prediction_id').primaryKey(),
    /** Telegram chat id (private chat = the user's id; groups are negative, beyond 32 bits). */
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    /** Forum topic of the recording in a supergroup, or null. */
    threadId: integer('thread_id'),
    /** Telegram user id of the person who asked (and is charged). */
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** The message holding the recording; the bot's answers reply to it. */
    messageId: integer('message_id').notNull(),
    /** The status message the bot edits while the prediction waits and runs. */
    statusMessageId: integer('status_message_id').notNull(),
    /** The key the prediction was made under (the person's bot key), for reads and cancel. */
    apiKeyId: text('api_key_id').notNull(),
    /** The recording's file name, for transcript file names and for /cancel's answer. */
    fileName: text('file_name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** When the result or its failure was shown in the chat; null while still to deliver. */
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [index('bot_deliveries_pending_idx').on(t.deliveredAt, t.userId)],
);

/** Per-group settings of the bot, changed by a group admin; a missing row means the defaults. */
export const botGroups = pgTable('bot_groups', {
  /** Telegram chat id of the group or supergroup. */
  chatId: bigint('chat_id', { mode: 'number' }).primaryKey(),
  /** True: every recording in the group is transcribed; false: only when the bot is mentioned or replied to. */
  transcribeAll: boolean('transcribe_all').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

export type BotDeliveryRow = typeof botDeliveries.$inferSelect;
