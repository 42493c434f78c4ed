import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botUsers } from '../../platform/db/schema.ts';

/** What the portal shows of a Telegram user: their name, and the Telegram language behind their bot language. */
export interface BotUserProfile {
  /** `Anna Smith`, or null when never seen. */
  displayName: string | null;
  /** Telegram `language_code` (`ru`, `en-GB`), or null. */
  telegramLanguage: string | null;
  /** The /language choice (`en`, `ru`), or null: follow the Telegram language. */
  uiLocale: string | null;
}

/** Longest name kept, characters (Telegram's first and last names are at most 64 each). */
const MAX_NAME_CHARS = 129;

/**
 * Stores a Telegram user's name and Telegram language (from the update that asked for a portal
 * link), so the portal greets them by name and speaks their bot language. Makes the person's row
 * when missing; their settings keep their values. A blank name is stored as null.
 */
export async function saveBotUserProfile(
  db: Db,
  telegramId: string,
  profile: { displayName: string | null; telegramLanguage: string | null },
): Promise<void> {
  const displayName = profile.displayName?.trim().slice(0, MAX_NAME_CHARS) || null;
  const values = { displayName, telegramLanguage: profile.telegramLanguage };
  await db
    .insert(botUsers)
    .values({ telegramId, ...values })
    .onConflictDoUpdate({ target: botUsers.telegramId, set: { ...values, updatedAt: sql`now()` } });
}
