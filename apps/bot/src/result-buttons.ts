import { InlineKeyboard } from 'grammy';
import { LANGUAGES, POST_PROCESS_TYPE_NAMES, TYPES_NEEDING_TARGET_LANGUAGE, type PostProcessType, type Transcript } from '@transcribe/core';
import type { Translate } from './bot-i18n.ts';
import { languageLabel } from './match-language.ts';
import { TRANSCRIPT_FILE_FORMATS, type TranscriptFileFormat } from './render-transcript-file.ts';

/**
 * Buttons under a transcript and their callback data (at most 64 bytes, Bot API):
 * - `pp:<prediction>:<type index>` run a type (a language picker first for translations);
 * - `pm:<prediction>` show every type;
 * - `pl:<prediction>:<type index>:<page>` a page of the language picker;
 * - `pt:<prediction>:<type index>:<language code>` run a translation type into that language;
 * - `pf:<prediction>:<format>` send the transcript as a file (txt, srt, docx, pdf);
 * - `ps:<prediction>` show the speaker counts to re-run with, `pb:<prediction>` back from there;
 * - `pr:<prediction>:<count>` re-run this recording with that many speakers (1..6), settings untouched;
 * - `pn:<prediction>` name the speakers (two or more voices; handle-name-speakers.ts).
 * Type indexes point into POST_PROCESS_TYPE_NAMES (spec 2.4 order).
 */
export type ResultAction =
  | { action: 'run'; predictionId: string; type: PostProcessType; targetLanguage: string | null }
  | { action: 'more'; predictionId: string }
  | { action: 'languages'; predictionId: string; type: PostProcessType; page: number }
  | { action: 'file'; predictionId: string; format: TranscriptFileFormat }
  | { action: 'speakers'; predictionId: string }
  | { action: 'back'; predictionId: string }
  | { action: 'rerun'; predictionId: string; speakers: number }
  | { action: 'name'; predictionId: string };

/** What the keyboard under a transcript holds, and in which language. */
export interface ResultKeyboardOptions {
  /** The reader's texts (bot-i18n.ts). */
  t: Translate;
  /** Every offered post-processing type instead of the first few and "More…". */
  all?: boolean;
  /** Post-processing buttons at all (false when no language model is configured). Default true. */
  postProcess?: boolean;
  /** "Name speakers": the transcript has two or more speakers (severalSpeakers). Default false. */
  nameSpeakers?: boolean;
}

/**
 * The types offered as buttons: spec 2.4's, in its order, but `custom` (it needs a prompt); their
 * labels are the catalog keys `type-<type>` (typeLabel).
 */
export const OFFERED_TYPES: readonly PostProcessType[] = POST_PROCESS_TYPE_NAMES.filter((type) => type !== 'custom');

/** A type's label in the reader's language (`Summary`, `Краткое содержание`). */
export function typeLabel(type: PostProcessType, t: Translate): string {
  return OFFERED_TYPES.includes(type) ? t(`type-${type}`) : type;
}

const FIRST_TYPES: readonly PostProcessType[] = ['summary', 'action_items', 'key_facts', 'translation'];
const LANGUAGES_PER_PAGE = 12;
/** Speaker counts offered for a re-run; other counts go through /settings. */
const RERUN_SPEAKERS = [1, 2, 3, 4, 5, 6];
const PATTERN = /^p([pmlt]):([a-z2-7]{26})(?::(\d{1,2}))?(?::([a-z]{2,3}|\d{1,2}))?$/;
const TRANSCRIPT_PATTERN = /^p([fsbrn]):([a-z2-7]{26})(?::([a-z]{3,4}|\d))?$/;

/**
 * The keyboard under a transcript: a few common post-processing types and "More…" (or, `all`,
 * every offered type and "◀ Back" to the few), then the file formats, "Speakers…" and, with two or
 * more speakers, "Name speakers".
 */
export function resultKeyboard(predictionId: string, options: ResultKeyboardOptions): InlineKeyboard {
  const { all = false, postProcess = true, nameSpeakers = false, t } = options;
  const keyboard = new InlineKeyboard();
  if (postProcess) {
    const types = all ? OFFERED_TYPES : FIRST_TYPES;
    types.forEach((type, index) => {
      const suffix = TYPES_NEEDING_TARGET_LANGUAGE.includes(type) ? '…' : '';
      keyboard.text(`${typeLabel(type, t)}${suffix}`, `pp:${predictionId}:${typeIndex(type)}`);
      if (index % 2 === 1) keyboard.row();
    });
    if (!all) keyboard.text(t('button-more'), `pm:${predictionId}`);
    else keyboard.row().text(t('button-back'), `pb:${predictionId}`); // back to the first few
    keyboard.row();
  }
  for (const format of TRANSCRIPT_FILE_FORMATS) keyboard.text(`📄 .${format}`, `pf:${predictionId}:${format}`);
  keyboard.row().text(t('button-speakers'), `ps:${predictionId}`);
  return nameSpeakers ? keyboard.text(t('button-name-speakers'), `pn:${predictionId}`) : keyboard;
}

/** True when a transcript has two or more speaker labels: then its speakers can be named. */
export function severalSpeakers(transcript: Pick<Transcript, 'segments'>): boolean {
  return new Set(transcript.segments.flatMap((segment) => (segment.speaker === null ? [] : [segment.speaker]))).size >= 2;
}

/** "Re-run with N speakers" for 1..6 and "◀ Back": a choice for this recording only. */
export function speakersKeyboard(predictionId: string, t: Translate): InlineKeyboard {
  const keyboard = new InlineKeyboard();
  RERUN_SPEAKERS.forEach((count, index) => {
    keyboard.text(t('button-rerun', { count }), `pr:${predictionId}:${count}`);
    if (index % 2 === 1) keyboard.row();
  });
  return keyboard.text(t('button-back'), `pb:${predictionId}`);
}

/**
 * Languages people most often translate into, after their own ones: the most spoken languages
 * with the most readers online (the bot's /settings offers the same few first).
 */
export const LIKELY_TARGET_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'ru', 'uk', 'pl', 'nl', 'tr', 'ar', 'zh', 'ja', 'ko', 'hi'];

/**
 * The target languages in picker order: `preferred` codes first (the person's recent choices, their
 * Telegram language, their bot language), then LIKELY_TARGET_LANGUAGES, then every other spec 2.5
 * language in the alphabetical order of its name in the reader's language (`locale`).
 */
export function targetLanguageOrder(preferred: readonly string[], locale: string): string[] {
  const known = (code: string) => LANGUAGES.some((language) => language.code === code);
  const first = [...new Set([...preferred, ...LIKELY_TARGET_LANGUAGES])].filter(known);
  const rest = LANGUAGES.map((language) => language.code)
    .filter((code) => !first.includes(code))
    .map((code) => ({ code, label: languageLabel(code, locale) }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
  return [...first, ...rest.map((entry) => entry.code)];
}

/**
 * One page of the target-language picker, with ◀ / ▶ between pages and "◀ Back" to the buttons
 * under the transcript, in targetLanguageOrder: the person's recent and likely languages on the
 * first page. Names are in the reader's bot language (`locale`).
 */
export function languageKeyboard(
  predictionId: string,
  type: PostProcessType,
  page: number,
  reader: { t: Translate; locale: string; preferred?: readonly string[] },
): InlineKeyboard {
  const preferred = reader.preferred ?? [];
  const pages = Math.ceil(LANGUAGES.length / LANGUAGES_PER_PAGE);
  const current = Math.min(Math.max(page, 0), pages - 1);
  const ordered = targetLanguageOrder(preferred, reader.locale);
  const keyboard = new InlineKeyboard();
  ordered.slice(current * LANGUAGES_PER_PAGE, (current + 1) * LANGUAGES_PER_PAGE).forEach((code, index) => {
    keyboard.text(languageLabel(code, reader.locale), `pt:${predictionId}:${typeIndex(type)}:${code}`);
    if (index % 3 === 2) keyboard.row();
  });
  keyboard.row();
  if (current > 0) keyboard.text('◀', `pl:${predictionId}:${typeIndex(type)}:${current - 1}`);
  if (current < pages - 1) keyboard.text('▶', `pl:${predictionId}:${typeIndex(type)}:${current + 1}`);
  keyboard.row().text(reader.t('button-back'), `pb:${predictionId}`);
  return keyboard;
}

/** Reads callback data made by the keyboards above; null for anything else or out-of-range values. */
export function parseResultAction(data: string): ResultAction | null {
  const transcript = TRANSCRIPT_PATTERN.exec(data);
  if (transcript) return parseTranscriptAction(transcript);
  const match = PATTERN.exec(data);
  if (!match) return null;
  const [, kind, predictionId = '', index, last] = match;
  if (kind === 'm') return index === undefined ? { action: 'more', predictionId } : null;
  const type = index === undefined ? undefined : POST_PROCESS_TYPE_NAMES[Number(index)];
  if (type === undefined || !OFFERED_TYPES.includes(type)) return null;
  if (kind === 'p' && last === undefined) return { action: 'run', predictionId, type, targetLanguage: null };
  if (kind === 'l' && last !== undefined && /^\d+$/.test(last)) return { action: 'languages', predictionId, type, page: Number(last) };
  if (kind === 't' && last !== undefined && LANGUAGES.some((language) => language.code === last)) {
    return { action: 'run', predictionId, type, targetLanguage: last };
  }
  return null;
}

function parseTranscriptAction([, kind, predictionId = '', last]: RegExpExecArray): ResultAction | null {
  if (kind === 'f') {
    const format = TRANSCRIPT_FILE_FORMATS.find((entry) => entry === last);
    return format ? { action: 'file', predictionId, format } : null;
  }
  if (kind === 'r') {
    const speakers = Number(last);
    return RERUN_SPEAKERS.includes(speakers) ? { action: 'rerun', predictionId, speakers } : null;
  }
  if (last !== undefined) return null;
  if (kind === 'n') return { action: 'name', predictionId };
  return kind === 's' ? { action: 'speakers', predictionId } : { action: 'back', predictionId };
}

function typeIndex(type: PostProcessType): number {
  return POST_PROCESS_TYPE_NAMES.indexOf(type);
}
