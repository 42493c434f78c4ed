import { InlineKeyboard } from 'grammy';
import { LANGUAGES, POST_PROCESS_TYPE_NAMES, TYPES_NEEDING_TARGET_LANGUAGE, type PostProcessType } from '@transcribe/core';

/**
 * Buttons under a transcript and their callback data (at most 64 bytes, Bot API):
 * - `pp:<prediction>:<type index>` run a type (a language picker first for translations);
 * - `pm:<prediction>` show every type;
 * - `pl:<prediction>:<type index>:<page>` a page of the language picker;
 * - `pt:<prediction>:<type index>:<language code>` run a translation type into that language.
 * Type indexes point into POST_PROCESS_TYPE_NAMES (spec 2.4 order).
 */
export type ResultAction =
  | { action: 'run'; predictionId: string; type: PostProcessType; targetLanguage: string | null }
  | { action: 'more'; predictionId: string }
  | { action: 'languages'; predictionId: string; type: PostProcessType; page: number };

/** Human labels of the types offered as buttons (`custom` needs a prompt and is not offered). */
export const POST_PROCESS_LABELS: Partial<Record<PostProcessType, string>> = {
  summary: 'Summary', gist: 'Gist', detailed: 'Detailed retelling', meeting_minutes: 'Meeting minutes',
  lecture_notes: 'Lecture notes (Russian)', simple: 'Simple explanation', key_facts: 'Key facts',
  action_items: 'Action items', chapters: 'Chapters', blog_post: 'Blog post', article: 'Article', quiz: 'Quiz',
  customer_insights: 'Customer insights', clean_up: 'Cleaned-up text', translation: 'Translation',
  translated_subtitles: 'Translated subtitles', speaker_names: 'Speaker names',
};

const FIRST_TYPES: readonly PostProcessType[] = ['summary', 'action_items', 'key_facts', 'translation'];
const LANGUAGES_PER_PAGE = 12;
const PATTERN = /^p([pmlt]):([a-z2-7]{26})(?::(\d{1,2}))?(?::([a-z]{2,3}|\d{1,2}))?$/;

/** The keyboard under a transcript: a few common types and "More…", or (`all`) every offered type. */
export function resultKeyboard(predictionId: string, all = false): InlineKeyboard {
  const types = all ? (Object.keys(POST_PROCESS_LABELS) as PostProcessType[]) : FIRST_TYPES;
  const keyboard = new InlineKeyboard();
  types.forEach((type, index) => {
    const suffix = TYPES_NEEDING_TARGET_LANGUAGE.includes(type) ? '…' : '';
    keyboard.text(`${POST_PROCESS_LABELS[type]}${suffix}`, `pp:${predictionId}:${typeIndex(type)}`);
    if (index % 2 === 1) keyboard.row();
  });
  if (!all) keyboard.text('More…', `pm:${predictionId}`);
  return keyboard;
}

/** One page of the target-language picker (spec 2.5 order), with ◀ / ▶ between pages. */
export function languageKeyboard(predictionId: string, type: PostProcessType, page: number): InlineKeyboard {
  const pages = Math.ceil(LANGUAGES.length / LANGUAGES_PER_PAGE);
  const current = Math.min(Math.max(page, 0), pages - 1);
  const keyboard = new InlineKeyboard();
  LANGUAGES.slice(current * LANGUAGES_PER_PAGE, (current + 1) * LANGUAGES_PER_PAGE).forEach((language, index) => {
    keyboard.text(language.name, `pt:${predictionId}:${typeIndex(type)}:${language.code}`);
    if (index % 3 === 2) keyboard.row();
  });
  keyboard.row();
  if (current > 0) keyboard.text('◀', `pl:${predictionId}:${typeIndex(type)}:${current - 1}`);
  if (current < pages - 1) keyboard.text('▶', `pl:${predictionId}:${typeIndex(type)}:${current + 1}`);
  return keyboard;
}

/** Reads callback data made by the keyboards above; null for anything else or out-of-range values. */
export function parseResultAction(data: string): ResultAction | null {
  const match = PATTERN.exec(data);
  if (!match) return null;
  const [, kind, predictionId = '', index, last] = match;
  if (kind === 'm') return index === undefined ? { action: 'more', predictionId } : null;
  const type = index === undefined ? undefined : POST_PROCESS_TYPE_NAMES[Number(index)];
  if (type === undefined || POST_PROCESS_LABELS[type] === undefined) return null;
  if (kind === 'p' && last === undefined) return { action: 'run', predictionId, type, targetLanguage: null };
  if (kind === 'l' && last !== undefined && /^\d+$/.test(last)) return { action: 'languages', predictionId, type, page: Number(last) };
  if (kind === 't' && last !== undefined && LANGUAGES.some((language) => language.code === last)) {
    return { action: 'run', predictionId, type, targetLanguage: last };
  }
  return null;
}

function typeIndex(type: PostProcessType): number {
  return POST_PROCESS_TYPE_NAMES.indexOf(type);
}
