import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botUsers } from '../../platform/db/schema.ts';
import type { BotUserProfile } from './save-bot-user-profile.ts';

/**
 * The name, Telegram language and /language choice of a Telegram user (`telegramId` as decimal
 * text), or null when the bot has no row for them.
 * @throws Error from the database.
 */
export async function getBotUserProfile(db: Db, telegramId: string): Promise<BotUserProfile | null> {
  const [row] = await db
    .select({ displayName: botUsers.displayName, telegramLanguage: botUsers.telegramLanguage, uiLocale: botUsers.uiLocale })
    .from(botUsers)
    .where(eq(botUsers.telegramId, telegramId))
    .limit(1);
  return row ?? null;
}
