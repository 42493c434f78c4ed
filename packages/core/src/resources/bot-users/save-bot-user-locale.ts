import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botUsers } from '../../platform/db/schema.ts';

/**
 * Stores the language of the bot's own texts a Telegram user chose with /language (`en`, `ru`;
 * null: follow their Telegram language). Makes the person's row when missing; their other settings
 * keep their values (or defaults). The bot checks the locale against the catalogs it has.
 */
export async function saveBotUserLocale(db: Db, telegramId: string, locale: string | null): Promise<void> {
  await db
    .insert(botUsers)
    .values({ telegramId, uiLocale: locale })
    .onConflictDoUpdate({ target: botUsers.telegramId, set: { uiLocale: locale, updatedAt: sql`now()` } });
}
