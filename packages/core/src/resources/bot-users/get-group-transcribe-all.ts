import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botGroups } from '../../platform/db/bot-schema.ts';

/**
 * Whether the bot transcribes every recording in group `chatId` (true) or only those it is
 * mentioned in or replied to (false, the default: a group's members did not all ask for it).
 */
export async function getGroupTranscribeAll(db: Db, chatId: number): Promise<boolean> {
  const [row] = await db.select({ all: botGroups.transcribeAll }).from(botGroups).where(eq(botGroups.chatId, chatId)).limit(1);
  return row?.all ?? false;
}
