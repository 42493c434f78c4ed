import { desc, isNotNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botUsers } from '../../platform/db/schema.ts';

/** One person's /language choice. */
export interface BotUserLocale {
  /** Telegram user id as decimal text. */
  telegramId: string;
  locale: string;
}

/**
 * The /language choices of Telegram users, most recently changed first, at most `limit`: the bot
 * reads them once at start and keeps them in memory, so no update waits for the database to know
 * which language to answer in.
 */
export async function listBotUserLocales(db: Db, limit: number): Promise<BotUserLocale[]> {
  const rows = await db
    .select({ telegramId: botUsers.telegramId, locale: botUsers.uiLocale })
    .from(botUsers)
    .where(isNotNull(botUsers.uiLocale))
    .orderBy(desc(botUsers.updatedAt))
    .limit(limit);
  return rows.flatMap((row) => (row.locale === null ? [] : [{ telegramId: row.telegramId, locale: row.locale }]));
}
