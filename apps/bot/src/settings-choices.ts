import { InlineKeyboard } from 'grammy';
import {
  LANGUAGES,
  POST_PROCESS_TYPE_NAMES,
  TYPES_NEEDING_TARGET_LANGUAGE,
  type BotOutputFormat,
  type BotUserSettings,
  type PostProcessType,
} from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';
import { languageLabel, languageListInWords, matchLanguage } from './match-language.ts';
import { LIKELY_TARGET_LANGUAGES, OFFERED_TYPES, typeLabel } from './result-buttons.ts';

/** One button of a settings question: `value` goes into callback data `set:<step>:<value>`. */
export interface Choice {
  value: string;
  label: string;
}

/** Offered when the engine takes any language (spec 2.5 codes); others can be typed. */
const COMMON_LANGUAGES = LIKELY_TARGET_LANGUAGES;

/** The output formats in the order offered; labels are the catalog keys `format-<format>`. */
const FORMATS: readonly BotOutputFormat[] = ['messages', 'txt', 'srt'];

/**
 * Languages the engine recognises (spec 2.5 names), after "Automatic": the `preferred` ones first
 * (the person's Telegram language, their saved choice), as far as the engine takes them.
 */
export function languageChoices(
  engineLanguages: readonly string[] | 'any',
  reader: { t: Translate; locale: string },
  preferred: readonly (string | null)[] = [],
): Choice[] {
  const codes = engineLanguages === 'any' ? COMMON_LANGUAGES : engineLanguages;
  const usable = (code: string | null): code is string => code !== null && (engineLanguages === 'any' || engineLanguages.includes(code));
  const order = [...new Set([...preferred.filter(usable), ...codes])];
  const named = order
    .flatMap((code) => LANGUAGES.filter((language) => language.code === code))
    .map((language) => ({ value: language.code, label: languageLabel(language.code, reader.locale) }));
  return [{ value: 'auto', label: reader.t('choice-automatic') }, ...named];
}

/**
 * A typed language the engine takes, as its spec 2.5 code; else null. Any common form is read
 * (`German`, `deutsch`, `de`, `de-DE`, small typos: match-language.ts).
 */
export function parseLanguageText(text: string, engineLanguages: readonly string[] | 'any'): string | null {
  return matchLanguage(text, engineLanguages);
}

/** The language question of /settings: its text, its buttons, how a typed answer is read and what an unread one is told. */
export interface LanguageQuestion {
  text: string;
  choices: Choice[];
  /** The spec 2.5 code of a typed answer the engine takes, else null. */
  parseText(text: string): string | null;
  /** The reply to a typed answer parseText did not take. */
  explain(text: string): string;
}

/**
 * The /settings language question for the engine's languages. An engine that takes any language
 * gets a few common buttons and an offer to type any other (`German`, `deutsch`, `de`). An engine
 * with a fixed list (PocketSphinx: English only) gets every one of its languages as a button and a
 * sentence naming them, and no offer to type: a typed language it does not take is answered with
 * what this server recognises, not with "pick a button".
 */
export function languageQuestion(
  engineLanguages: readonly string[] | 'any',
  reader: { t: Translate; locale: string },
  preferred: readonly (string | null)[] = [],
): LanguageQuestion {
  const { t } = reader;
  const choices = languageChoices(engineLanguages, reader, preferred);
  const parseText = (text: string) => parseLanguageText(text, engineLanguages);
  if (engineLanguages === 'any') {
    return { text: t('settings-question-language'), choices, parseText, explain: () => t('settings-pick-a-button') };
  }
  const languages = languageListInWords(engineLanguages, reader.locale);
  return {
    text: t('settings-question-language-only', { count: engineLanguages.length, languages }),
    choices,
    parseText,
    explain(text) {
      const wanted = matchLanguage(text);
      if (wanted === null) return t('settings-pick-a-button');
      return t('settings-language-not-here', { languages, language: languageListInWords([wanted], reader.locale) });
    },
  };
}

/** The output format choices in the reader's language. */
export function formatChoices(t: Translate): Choice[] {
  return FORMATS.map((value) => ({ value, label: t(`format-${value}`) }));
}

/** The speaker count choices: Automatic (the default), 1..6. */
export function speakerChoices(t: Translate): Choice[] {
  return [
    { value: 'auto', label: t('choice-automatic') },
    ...[1, 2, 3, 4, 5, 6].map((count) => ({ value: String(count), label: String(count) })),
  ];
}

/** Whether named voices are recognised: On (the default), Off. */
export function knownVoicesChoices(t: Translate): Choice[] {
  return [
    { value: 'on', label: t('choice-on') },
    { value: 'off', label: t('choice-off') },
  ];
}

/** A typed speaker count: a whole number 1..100, else null. */
export function parseSpeakersText(text: string): string | null {
  const count = Number(text.trim());
  return Number.isInteger(count) && count >= 1 && count <= 100 ? String(count) : null;
}

/** Types that can run after every transcript: all offered ones except those needing a language. */
export const DEFAULT_TYPE_CHOICES: PostProcessType[] = OFFERED_TYPES.filter((type) => !TYPES_NEEDING_TARGET_LANGUAGE.includes(type));

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
export function typesKeyboard(selected: readonly string[], t: Translate): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  DEFAULT_TYPE_CHOICES.forEach((type, index) => {
    const mark = selected.includes(type) ? '✅ ' : '';
    keyboard.text(`${mark}${typeLabel(type, t)}`, `set:pp:${POST_PROCESS_TYPE_NAMES.indexOf(type)}`);
    if (index % 2 === 1) keyboard.row();
  });
  return keyboard.row().text(t('choice-done'), 'set:pp:done');
}

/** The settings as lines for the chat, in the reader's language. */
export function describeSettings(settings: BotUserSettings, reader: { t: Translate; locale: string }): string {
  const { t } = reader;
  const language = settings.language === null ? t('settings-automatic') : languageLabel(settings.language, reader.locale);
  const types = settings.postProcess.map((type) => typeLabel(type as PostProcessType, t)).join(', ') || t('settings-none');
  return [
    t('settings-line-language', { value: language }),
    t('settings-line-format', { value: t(`format-${settings.outputFormat}`) }),
    t('settings-line-types', { value: types }),
    t('settings-line-speakers', { value: settings.speakers === null ? t('settings-automatic') : String(settings.speakers) }),
    t('settings-line-voices', { value: t(settings.knownVoices ? 'settings-on' : 'settings-off') }),
  ].join('\n');
}
