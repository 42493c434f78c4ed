import type { Request } from 'express';
import { isAppError } from '@transcribe/core';
import { describeError } from './describe-error.ts';
import { describeVoiceError } from './describe-voice-error.ts';
import type { PortalReader } from './portal-i18n.ts';

/** The portal page listing the languages (public; the API's own list needs a key, so a browser gets 401 there). */
export const PORTAL_LANGUAGES_PATH = '/portal/languages';

/** An error as the portal tells it: in the reader's language where it can, at the field it concerns. */
export interface PortalErrorText {
  status: number;
  /** What to tell the person. */
  message: string;
  /** True when `message` is the service's own English text shown to a reader of another language. */
  english: boolean;
  /** The spec 2.2 parameter (form field) concerned: `audio`, `language`, `speakers`, …, when known. */
  field?: string;
  /** A portal page that helps (the list of languages for a language the server does not take): the sentence around its link, the link. */
  help?: { href: string; text: string; before: string; after: string };
}

/** Form fields with a message of their own in every language (catalog key `portal-field-<param>`). */
const FIELDS = new Set(['audio', 'language', 'speakers', 'output_format', 'post_process', 'target_language', 'custom_prompt']);
/** The API's pointer to its language list (core languageListReference), which a browser cannot open without a key. */
const LANGUAGE_LIST_SENTENCE = /\s*See the list of languages (?:at \S+?|in docs\/api\.md#languages)\.(?=\s|$)/;

/**
 * The status and words of an error for a portal page or portal.js, from the API's one error mapper
 * (describe-error.ts), so the status is the API's. English readers get the service's own detail
 * (it names the rule); readers of another language get the field's rule in their language when
 * the error names a form field, else the English detail marked as such. A language error's pointer
 * to the API's language list (which answers 401 in a browser) is replaced by the portal's page.
 * The refusals of the speaker and voice forms are told in the reader's language (describeVoiceError).
 */
export function describePortalError(error: unknown, req: Request, { t, locale }: PortalReader): PortalErrorText {
  const { status, detail } = describeError(error, req);
  const param = isAppError(error) ? error.param : undefined;
  const aboutLanguages = LANGUAGE_LIST_SENTENCE.test(detail) || param === 'language' || param === 'target_language';
  const [before = '', after = ''] = t('portal-see-languages', { link: '\u0000' }).split('\u0000');
  const help = aboutLanguages ? { href: PORTAL_LANGUAGES_PATH, text: t('portal-languages-link-text'), before, after } : undefined;
  const field = param && (FIELDS.has(param) || param === 'old_key') ? param : undefined;
  const english = detail.replace(LANGUAGE_LIST_SENTENCE, '');
  const base = { status, ...(field ? { field } : {}), ...(help ? { help } : {}) };
  const voice = /\/(?:speakers|voices)(?:\/|$)/.test(req.path) ? describeVoiceError(error, t) : null;
  if (voice !== null) return { ...base, message: voice, english: false };
  if (locale === 'en') return { ...base, message: english, english: false };
  const key = fieldMessageKey(param, detail);
  return key ? { ...base, message: t(key), english: false } : { ...base, message: english, english: true };
}

/** The catalog key of a field's message (the portal's own refusals of the upload form have their own), or null. */
function fieldMessageKey(param: string | undefined, detail: string): string | null {
  if (param === 'audio' && detail.startsWith('Choose a file or paste a link, not both')) return 'portal-not-both';
  if (param === 'audio' && detail.startsWith('Choose a recording file')) return 'portal-choose-file-or-link';
  if (param === 'old_key') return 'portal-key-choose-grace';
  return param && FIELDS.has(param) ? `portal-field-${param}` : null;
}
