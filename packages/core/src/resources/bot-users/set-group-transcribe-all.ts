import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botGroups } from '../../platform/db/bot-schema.ts';

/** Stores group `chatId`'s choice (set by a group admin; the caller checks that). */
export async function setGroupTranscribeAll(db: Db, chatId: number, transcribeAll: boolean): Promise<void> {
  await db
    .insert(botGroups)
    .values({ chatId, transcribeAll })
    .onConflictDoUpdate({ target: botGroups.chatId, set: { transcribeAll, updatedAt: sql`now()` } });
}
