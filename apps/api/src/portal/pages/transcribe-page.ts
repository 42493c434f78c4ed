import { LANGUAGES, OUTPUT_FORMATS, POST_PROCESS_TYPES, type Language } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalRequestSession } from '../portal-session.ts';

export interface TranscribeFormOptions {
  /** Languages the recognition engine takes (RecognitionEngine.languages). */
  recognitionLanguages: readonly string[] | 'any';
  /** Whether post-processing (spec 2.4) can run: a language model is configured. */
  llmConfigured: boolean;
  /** Largest upload in bytes (spec 8: 300 MiB). */
  maxBytes: number;
  /** A message to show above the form (a refused request without JavaScript). */
  error?: string;
}

const FORMAT_HELP: Record<string, string> = {
  json: 'json – segments and times (default)',
  json2: 'json2 – json with languages, speakers',
  text: 'text – plain text with speakers and times',
  srt: 'srt – subtitles',
  lrc: 'lrc – lyrics-style subtitles',
};

/**
 * Transcribe: upload a file (progress bar, portal.js) or paste a link, choose the output format
 * (spec 2.2) and post-processing types (spec 2.4). Works without JavaScript as a plain form post.
 */
export function transcribePage(session: PortalRequestSession, options: TranscribeFormOptions): SafeHtml {
  const engineLanguages =
    options.recognitionLanguages === 'any'
      ? LANGUAGES
      : LANGUAGES.filter((language) => (options.recognitionLanguages as readonly string[]).includes(language.code));
  return html`<div id="form-error" class="notice error" role="alert" tabindex="-1"${options.error ? '' : html` hidden`}>${options.error ? html`<p>${options.error}</p>` : ''}</div>
<form id="transcribe-form" method="post" action="/portal/transcribe" enctype="multipart/form-data" class="stack" data-max-bytes="${options.maxBytes}">
  <input type="hidden" name="csrf" value="${session.csrfToken}">
  <fieldset><legend>Recording</legend>
    <div class="field"><label for="audio-file">Audio or video file <span class="hint">(up to ${Math.floor(options.maxBytes / 1048576)} MiB)</span></label>
      <input id="audio-file" name="input.audio" type="file" accept="audio/*,video/*"></div>
    <p class="or">or</p>
    <div class="field"><label for="audio-link">Link to a recording</label>
      <input id="audio-link" name="link" type="url" inputmode="url" placeholder="https://example.com/talk.mp3" autocomplete="off"></div>
  </fieldset>
  <div class="field"><label for="output-format">Output format</label>
    <select id="output-format" name="input.output_format">${OUTPUT_FORMATS.map((format) => html`<option value="${format}">${FORMAT_HELP[format] ?? format}</option>`)}</select>
    <p class="hint">Every format can be downloaded afterwards; this one is what the API returns as output.</p></div>
  <div class="field"><label for="language">Language</label>
    <select id="language" name="input.language"><option value="">Detect automatically</option>${languageOptions(engineLanguages)}</select></div>
  <div class="field"><label for="speakers">Number of speakers <span class="hint">(optional)</span></label>
    <input id="speakers" name="input.speakers" type="number" min="1" max="32" step="1" inputmode="numeric"></div>
  ${postProcessFields(options.llmConfigured)}
  <div id="upload-progress" class="progress-block" hidden>
    <label for="upload-bar">Uploading</label>
    <progress id="upload-bar" max="100" value="0"></progress>
    <span id="upload-percent" aria-live="polite"></span>
  </div>
  <button type="submit" class="primary">Transcribe</button>
</form>`;
}

function languageOptions(languages: readonly Language[]): SafeHtml[] {
  return languages.map((language) => html`<option value="${language.code}">${language.name} (${language.code})</option>`);
}

function postProcessFields(llmConfigured: boolean): SafeHtml {
  if (!llmConfigured) {
    return html`<p class="hint">Summaries, translations and other post-processing need a language model, and none is configured on this server.</p>`;
  }
  const boxes = POST_PROCESS_TYPES.map(
    (info) =>
      html`<label class="choice"><input type="checkbox" name="input.post_process" value="${info.type}"> <code>${info.type}</code> – ${info.result}</label>`,
  );
  return html`<fieldset class="post-process"><legend>Post-processing <span class="hint">(optional, up to 8)</span></legend>
  <div class="choices">${boxes}</div>
  <div class="field"><label for="target-language">Target language <span class="hint">(for translation and translated_subtitles)</span></label>
    <select id="target-language" name="input.target_language"><option value="">—</option>${languageOptions(LANGUAGES)}</select></div>
  <div class="field"><label for="custom-prompt">Custom prompt <span class="hint">(for custom)</span></label>
    <textarea id="custom-prompt" name="input.custom_prompt" rows="3" maxlength="8192"></textarea></div>
</fieldset>`;
}
