/**
 * Per-person settings of the Telegram bot and their defaults. Stored in `bot_users`.
 */

/** How a transcript reaches the chat: text messages (a `.txt` file when long), a `.txt` file, or `.srt` subtitles. */
export const BOT_OUTPUT_FORMATS = ['messages', 'txt', 'srt'] as const;
export type BotOutputFormat = (typeof BOT_OUTPUT_FORMATS)[number];

export interface BotUserSettings {
  /** Recognition language code (spec 2.5), or null to let the engine choose. */
  language: string | null;
  outputFormat: BotOutputFormat;
  /** Post-processing types (spec 2.4) run after every transcript; unique, at most 8. */
  postProcess: string[];
  /** Expected number of speakers (spec 2.2 `speakers`, integer >= 1), or null. */
  speakers: number | null;
  /**
   * Whether the person's recordings are matched against the voices they named ("Name speakers",
   * docs/speakers.md): their predictions then ask for `known_voices: true`. On by default.
   */
  knownVoices: boolean;
}

export const DEFAULT_BOT_USER_SETTINGS: Readonly<BotUserSettings> = Object.freeze({
  language: null,
  outputFormat: 'messages',
  postProcess: [],
  speakers: null,
  knownVoices: true,
});

/** Owner string of a Telegram user's keys and work: `telegram:<id>`. */
export function telegramOwner(telegramId: number | string): string {
  return `telegram:${telegramId}`;
}

/** True when `value` is one of BOT_OUTPUT_FORMATS. */
export function isBotOutputFormat(value: unknown): value is BotOutputFormat {
  return typeof value === 'string' && (BOT_OUTPUT_FORMATS as readonly string[]).includes(value);
}
