import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { botUsers } from '../../platform/db/schema.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { LANGUAGES } from '../../contract/spec/languages.ts';
import { isPostProcessType, MAX_POST_PROCESS_TYPES } from '../../contract/spec/post-process-types.ts';
import { isBotOutputFormat, type BotUserSettings } from './bot-user-settings.ts';

/**
 * Stores the bot settings of one Telegram user (insert or replace). Rules: `language` a code of
 * spec 2.5 or null; `outputFormat` one of BOT_OUTPUT_FORMATS; `postProcess` unique types of spec 2.4,
 * at most 8 (spec 8); `speakers` an integer >= 1 or null (spec 2.2); `knownVoices` a boolean.
 * @throws AppError `invalid_input` naming the broken rule; nothing is stored then.
 */
export async function saveBotUserSettings(db: Db, telegramId: string, settings: BotUserSettings): Promise<void> {
  checkSettings(settings);
  const values = {
    language: settings.language,
    outputFormat: settings.outputFormat,
    postProcess: [...settings.postProcess],
    speakers: settings.speakers,
    knownVoices: settings.knownVoices,
  };
  await db
    .insert(botUsers)
    .values({ telegramId, ...values })
    .onConflictDoUpdate({ target: botUsers.telegramId, set: { ...values, updatedAt: sql`now()` } });
}

function checkSettings(settings: BotUserSettings): void {
  const reject = (param: string, rule: string): never => {
    throw new AppError('invalid_input', rule, { param });
  };
  if (settings.language !== null && !LANGUAGES.some((language) => language.code === settings.language)) {
    reject(
      'language',
      `language must be a code from the language list (spec 2.5) or empty; got "${String(settings.language).slice(0, 16)}".`,
    );
  }
  if (!isBotOutputFormat(settings.outputFormat)) reject('output_format', 'output format must be messages, txt or srt.');
  const types = settings.postProcess;
  if (new Set(types).size !== types.length || types.length > MAX_POST_PROCESS_TYPES || !types.every(isPostProcessType)) {
    reject('post_process', `post-processing must be at most ${MAX_POST_PROCESS_TYPES} different types of spec 2.4.`);
  }
  if (settings.speakers !== null && !(Number.isInteger(settings.speakers) && settings.speakers >= 1)) {
    reject('speakers', 'speakers must be a whole number of at least 1, or empty.');
  }
  if (typeof settings.knownVoices !== 'boolean') reject('known_voices', 'known voices must be on (true) or off (false).');
}
