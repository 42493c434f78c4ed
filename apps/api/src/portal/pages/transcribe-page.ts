import { LANGUAGES, OUTPUT_FORMATS, POST_PROCESS_TYPES, TYPES_NEEDING_TARGET_LANGUAGE } from '@transcribe/core';
import { languageLabel, languageListInWords } from '@transcribe/bot/languages';
import type { PortalErrorText } from '../describe-portal-error.ts';
import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';
import type { PortalRequestSession } from '../portal-session.ts';
import { PORTAL_LANGUAGES_PATH } from '../describe-portal-error.ts';

export interface TranscribeFormOptions {
  /** Languages the recognition engine takes (RecognitionEngine.languages). */
  recognitionLanguages: readonly string[] | 'any';
  /** Whether post-processing (spec 2.4) can run: a language model is configured. */
  llmConfigured: boolean;
  /** Largest upload in bytes (spec 8: 300 MiB). */
  maxBytes: number;
  /** A refused post to show (without JavaScript): at the top, and at its field. */
  error?: PortalErrorText;
}

/** The id of the element each form field (spec 2.2 parameter) is, for error messages that point at it. */
export const FIELD_IDS: Record<string, string> = {
  audio: 'audio-file',
  output_format: 'output-format',
  language: 'language',
  speakers: 'speakers',
  post_process: 'post-process-first',
  target_language: 'target-language',
  custom_prompt: 'custom-prompt',
};

/**
 * Transcribe: upload a file (progress bar, portal.js) or paste a link, choose the output format
 * (spec 2.2) and what to make after the transcript (spec 2.4), all in the reader's words: the
 * post-processing steps carry the bot's labels, languages their names in the reader's language.
 * A refused post shows its reason at the top, linked to the field, and at the field itself
 * (`aria-invalid`, `aria-describedby`); portal.js does the same for a post it sends. Works
 * without JavaScript as a plain form post.
 */
export function transcribePage(session: PortalRequestSession, options: TranscribeFormOptions, reader: PortalReader): SafeHtml {
  const { t } = reader;
  const error = options.error;
  const engine = options.recognitionLanguages;
  const engineLanguages = engine === 'any' ? LANGUAGES.map((language) => language.code) : engine;
  const mib = Math.floor(options.maxBytes / 1048576);
  const at = (field: string) => (error?.field === field ? error : undefined);
  const onlyOne =
    engine !== 'any' && engine.length <= 3
      ? html`<p class="hint" id="language-hint">${t('portal-language-only', { languages: languageListInWords(engine, reader.locale) })} <a href="${PORTAL_LANGUAGES_PATH}">${t('portal-languages-link')}</a></p>`
      : html`<p class="hint" id="language-hint"><a href="${PORTAL_LANGUAGES_PATH}">${t('portal-languages-link')}</a></p>`;
  return html`${errorSummary(error, reader)}
<form id="transcribe-form" method="post" action="/portal/transcribe" enctype="multipart/form-data" class="stack" data-max-bytes="${options.maxBytes}" data-too-large="${t('portal-file-too-large-here', { mib })}">
  <input type="hidden" name="csrf" value="${session.csrfToken}">
  <fieldset><legend>${t('portal-recording')}</legend>
    <div class="field"><label for="audio-file">${t('portal-file-label')} <span class="hint">${t('portal-file-limit', { mib })}</span></label>
      <input id="audio-file" name="input.audio" type="file" accept="audio/*,video/*"${invalid('audio', at('audio'))}>${fieldError('audio', at('audio'))}</div>
    <p class="or">${t('portal-or')}</p>
    <div class="field"><label for="audio-link">${t('portal-link-label')}</label>
      <input id="audio-link" name="link" type="url" inputmode="url" placeholder="https://example.com/talk.mp3" autocomplete="off"></div>
  </fieldset>
  <div class="field"><label for="output-format">${t('portal-format-label')}</label>
    <select id="output-format" name="input.output_format"${invalid('output_format', at('output_format'), 'output-format-hint')}>${OUTPUT_FORMATS.map((format) => html`<option value="${format}">${t(`portal-format-${format}`)}</option>`)}</select>
    ${fieldError('output_format', at('output_format'))}<p class="hint" id="output-format-hint">${t('portal-format-hint')}</p></div>
  <div class="field"><label for="language">${t('portal-language-label')}</label>
    <select id="language" name="input.language"${invalid('language', at('language'), 'language-hint')}><option value="">${t('portal-language-auto')}</option>${languageOptions(engineLanguages, reader)}</select>
    ${fieldError('language', at('language'))}${onlyOne}</div>
  <div class="field"><label for="speakers">${t('portal-speakers-label')} <span class="hint">${t('portal-optional')}</span></label>
    <input id="speakers" name="input.speakers" type="number" min="1" max="32" step="1" inputmode="numeric"${invalid('speakers', at('speakers'))}>${fieldError('speakers', at('speakers'))}</div>
  ${postProcessFields(options.llmConfigured, reader, at)}
  <div id="upload-progress" class="progress-block" hidden>
    <label for="upload-bar">${t('portal-uploading')}</label>
    <progress id="upload-bar" max="100" value="0"></progress>
    <span id="upload-percent" aria-live="polite"></span>
  </div>
  <button type="submit" class="primary">${t('portal-transcribe-button')}</button>
</form>`;
}

/** The box above the form: the reason, linked to the field it concerns (portal.js fills the same box). */
function errorSummary(error: PortalErrorText | undefined, reader: PortalReader): SafeHtml {
  const body = error ? errorText(error, reader) : '';
  return html`<div id="form-error" class="notice error" role="alert" tabindex="-1" data-lead="${reader.t('portal-form-errors')}"${error ? '' : html` hidden`}>${body}</div>`;
}

/** The reason as paragraphs: a link to the field when there is one, a note when it is the service's English, the help page. */
export function errorText(error: PortalErrorText, { t }: PortalReader): SafeHtml {
  const target = error.field ? FIELD_IDS[error.field] : undefined;
  const lead = target ? html`<p><a href="#${target}">${t('portal-form-errors')}</a></p>` : '';
  const english = error.english ? html`<p class="hint">${t('portal-error-details')}</p>` : '';
  const help = error.help ? html`<p>${error.help.before}<a href="${error.help.href}">${error.help.text}</a>${error.help.after}</p>` : '';
  return html`${lead}${english}<p>${error.message}</p>${help}`;
}

/** ` aria-invalid="true" aria-describedby="…"` on a field with an error; `hint` is its usual description. */
function invalid(field: string, error: PortalErrorText | undefined, hint?: string): SafeHtml | string {
  const described = [error ? `${field}-error` : null, hint].filter(Boolean).join(' ');
  // data-described keeps the usual description, for portal.js to restore when the error is cleared.
  return html`${error ? html` aria-invalid="true" data-described="${hint ?? ''}"` : ''}${described ? html` aria-describedby="${described}"` : ''}`;
}

/** The message under a field with an error. */
function fieldError(field: string, error: PortalErrorText | undefined): SafeHtml | string {
  return error ? html`<p class="field-error" id="${field}-error">${error.message}</p>` : '';
}

/** `<option>`s of the languages, named in the reader's language, in its alphabetical order. */
function languageOptions(codes: readonly string[], reader: PortalReader): SafeHtml[] {
  return codes
    .map((code) => ({ code, label: languageLabel(code, reader.locale) }))
    .sort((a, b) => a.label.localeCompare(b.label, reader.locale))
    .map((language) => html`<option value="${language.code}">${language.label} (${language.code})</option>`);
}

/** A post-processing step's label: the bot's (`type-summary` → Summary), or the portal's for `custom`. */
export function postProcessLabel(type: string, { t }: PortalReader): string {
  return type === 'custom' ? t('portal-type-custom') : t(`type-${type}`);
}

function postProcessFields(llmConfigured: boolean, reader: PortalReader, at: (field: string) => PortalErrorText | undefined): SafeHtml {
  const { t } = reader;
  if (!llmConfigured) return html`<p class="hint">${t('portal-no-llm')}</p>`;
  const boxes = POST_PROCESS_TYPES.map((info, index) => {
    const needs = TYPES_NEEDING_TARGET_LANGUAGE.includes(info.type)
      ? html` <span class="hint">(${t('portal-needs-target')})</span>`
      : info.type === 'custom'
        ? html` <span class="hint">(${t('portal-needs-prompt')})</span>`
        : '';
    const id = index === 0 ? html` id="post-process-first"` : '';
    return html`<label class="choice"><input type="checkbox" name="input.post_process" value="${info.type}"${id}${index === 0 ? invalid('post_process', at('post_process')) : ''}> ${postProcessLabel(info.type, reader)}${needs}</label>`;
  });
  return html`<fieldset class="post-process"><legend>${t('portal-post-processing')} <span class="hint">${t('portal-post-processing-hint')}</span></legend>
  ${fieldError('post_process', at('post_process'))}<div class="choices">${boxes}</div>
  <div class="field"><label for="target-language">${t('portal-target-label')} <span class="hint">${t('portal-target-hint')}</span></label>
    <select id="target-language" name="input.target_language"${invalid('target_language', at('target_language'))}><option value="">—</option>${languageOptions(
      LANGUAGES.map((language) => language.code),
      reader,
    )}</select>${fieldError('target_language', at('target_language'))}</div>
  <div class="field"><label for="custom-prompt">${t('portal-prompt-label')} <span class="hint">${t('portal-prompt-hint')}</span></label>
    <textarea id="custom-prompt" name="input.custom_prompt" rows="3" maxlength="8192"${invalid('custom_prompt', at('custom_prompt'))}></textarea>${fieldError('custom_prompt', at('custom_prompt'))}</div>
</fieldset>`;
}
