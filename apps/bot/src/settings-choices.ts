import { InlineKeyboard } from 'grammy';
import {
  LANGUAGES, POST_PROCESS_TYPE_NAMES, TYPES_NEEDING_TARGET_LANGUAGE,
  type BotOutputFormat, type BotUserSettings, type PostProcessType,
} from '@transcribe/core';
import { matchLanguage } from './match-language.ts';
import { POST_PROCESS_LABELS } from './result-buttons.ts';

/** One button of a settings question: `value` goes into callback data `set:<step>:<value>`. */
export interface Choice {
  value: string;
  label: string;
}

/** Offered when the engine takes any language (spec 2.5 codes); others can be typed. */
const COMMON_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'ru', 'uk', 'pl', 'nl', 'tr', 'ar', 'zh', 'ja', 'ko', 'hi'];

export const FORMAT_LABELS: Record<BotOutputFormat, string> = {
  messages: 'Chat messages',
  txt: '.txt file with times',
  srt: '.srt subtitles',
};

/**
 * Languages the engine recognises (spec 2.5 names), after "Automatic": the `preferred` ones first
 * (the person's Telegram language, their saved choice), as far as the engine takes them.
 */
export function languageChoices(engineLanguages: readonly string[] | 'any', preferred: readonly (string | null)[] = []): Choice[] {
  const codes = engineLanguages === 'any' ? COMMON_LANGUAGES : engineLanguages;
  const usable = (code: string | null): code is string => code !== null && (engineLanguages === 'any' || engineLanguages.includes(code));
  const order = [...new Set([...preferred.filter(usable), ...codes])];
  const named = order.flatMap((code) => LANGUAGES.filter((language) => language.code === code)).map((language) => ({ value: language.code, label: language.name }));
  return [{ value: 'auto', label: 'Automatic' }, ...named];
}

/**
 * A typed language the engine takes, as its spec 2.5 code; else null. Any common form is read
 * (`German`, `deutsch`, `de`, `de-DE`, small typos: match-language.ts).
 */
export function parseLanguageText(text: string, engineLanguages: readonly string[] | 'any'): string | null {
  return matchLanguage(text, engineLanguages);
}

export const FORMAT_CHOICES: Choice[] = Object.entries(FORMAT_LABELS).map(([value, label]) => ({ value, label }));

export const SPEAKER_CHOICES: Choice[] = [
  { value: 'auto', label: 'Automatic' },
  ...[1, 2, 3, 4, 5, 6].map((count) => ({ value: String(count), label: String(count) })),
];

/** A typed speaker count: a whole number 1..100, else null. */
export function parseSpeakersText(text: string): string | null {
  const count = Number(text.trim());
  return Number.isInteger(count) && count >= 1 && count <= 100 ? String(count) : null;
}

/** Types that can run after every transcript: all offered ones except those needing a language. */
export const DEFAULT_TYPE_CHOICES: PostProcessType[] = (Object.keys(POST_PROCESS_LABELS) as PostProcessType[]).filter(
  (type) => !TYPES_NEEDING_TARGET_LANGUAGE.includes(type),
);

/** Buttons of one question, `columns` per row. */
export function choiceKeyboard(step: string, choices: readonly Choice[], columns = 3): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  choices.forEach((choice, index) => {
    keyboard.text(choice.label, `set:${step}:${choice.value}`);
    if (index % columns === columns - 1) keyboard.row();
  });
  return keyboard;
}

/** Toggle buttons for the default post-processing types (✅ marks chosen ones) and "Done". */
export function typesKeyboard(selected: readonly string[]): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  DEFAULT_TYPE_CHOICES.forEach((type, index) => {
    const mark = selected.includes(type) ? '✅ ' : '';
    keyboard.text(`${mark}${POST_PROCESS_LABELS[type]}`, `set:pp:${POST_PROCESS_TYPE_NAMES.indexOf(type)}`);
    if (index % 2 === 1) keyboard.row();
  });
  return keyboard.row().text('Done', 'set:pp:done');
}

/** The settings as lines for the chat. */
export function describeSettings(settings: BotUserSettings): string {
  const language = LANGUAGES.find((entry) => entry.code === settings.language)?.name ?? 'automatic';
  const types = settings.postProcess.map((type) => POST_PROCESS_LABELS[type as PostProcessType] ?? type).join(', ') || 'none';
  return [
    `• Language: ${language}`,
    `• Transcript as: ${FORMAT_LABELS[settings.outputFormat]}`,
    `• After each transcript: ${types}`,
    `• Speakers: ${settings.speakers ?? 'automatic'}`,
  ].join('\n');
}
