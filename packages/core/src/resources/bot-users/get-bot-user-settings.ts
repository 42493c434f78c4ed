import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botUsers } from '../../platform/db/schema.ts';
import { DEFAULT_BOT_USER_SETTINGS, isBotOutputFormat, type BotUserSettings } from './bot-user-settings.ts';

/**
 * The bot settings of one Telegram user (`telegramId` as decimal text); the defaults when the user
 * never saved any. A stored value no longer valid (e.g. an unknown format) falls back to its default.
 */
export async function getBotUserSettings(db: Db, telegramId: string): Promise<BotUserSettings> {
  const [row] = await db.select().from(botUsers).where(eq(botUsers.telegramId, telegramId)).limit(1);
  if (!row) return { ...DEFAULT_BOT_USER_SETTINGS, postProcess: [] };
  return {
    language: row.language,
    outputFormat: isBotOutputFormat(row.outputFormat) ? row.outputFormat : DEFAULT_BOT_USER_SETTINGS.outputFormat,
    postProcess: Array.isArray(row.postProcess) ? row.postProcess.filter((type) => typeof type === 'string') : [],
    speakers: row.speakers,
    knownVoices: row.knownVoices,
  };
}
