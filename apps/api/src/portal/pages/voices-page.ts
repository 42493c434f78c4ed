import type { VoiceExcerptState, VoiceRow } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';
import { formatDateTime, formatNumber } from './format.ts';

/** A voice as the portal lists it: its row and whether its excerpt can be played. */
export interface ListedVoice {
  voice: VoiceRow;
  excerpt: VoiceExcerptState;
}

/** Where a delete form sends the browser back to: the Voices page or the API (account) page. */
export type VoicesBack = 'voices' | 'api';

/**
 * The Voices page (docs/portal.md, "Speakers and voices"): what a voice is and that only its voiceprint
 * is kept, then the voices with a sample excerpt each (an `<audio>` of `/portal/voices/{id}/excerpt`
 * when its recording is still stored, else why there is none) and a Delete button (a POST with the CSRF token).
 * `notice`: a catalog key said at the top (`portal-voices-deleted`), or null.
 */
export function voicesPage(voices: ListedVoice[], csrfToken: string, notice: string | null, reader: PortalReader): SafeHtml {
  const { t } = reader;
  return html`${notice ? html`<div class="notice success" role="status"><p>${t(notice)}</p></div>` : ''}
<p>${t('portal-voices-intro')}</p>
${voices.length === 0 ? html`<p>${t('portal-voices-none')}</p>` : voiceTable(voices, csrfToken, 'voices', reader)}`;
}

/**
 * The account's voices as a table: name, created, seconds of speech, the excerpt (on the Voices page
 * only: `back` = `voices`) and Delete. Also on the API (account) page, as the issue asks ("listed on
 * the account page").
 */
export function voiceTable(voices: ListedVoice[], csrfToken: string, back: VoicesBack, reader: PortalReader): SafeHtml {
  const { t } = reader;
  const withExcerpt = back === 'voices';
  const rows = voices.map(({ voice, excerpt }) => {
    const source = voice.sourcePredictionId
      ? html` <a class="hint" href="/portal/predictions/${voice.sourcePredictionId}">${t('portal-voices-from-transcript')}</a>`
      : '';
    return html`<tr data-voice="${voice.id}"><th scope="row">${voice.name}${withExcerpt ? source : ''}</th>
<td>${formatDateTime(voice.createdAt)}</td>
<td>${t('portal-voices-seconds', { seconds: formatNumber(voice.speechSeconds, 1, reader) })}</td>
${withExcerpt ? html`<td>${excerptCell(voice, excerpt, reader)}</td>` : ''}
<td><form method="post" action="/portal/voices/${voice.id}/delete" class="inline-form">
  <input type="hidden" name="csrf" value="${csrfToken}">
  <input type="hidden" name="back" value="${back}">
  <button type="submit" class="secondary" aria-label="${t('portal-voices-delete-named', { name: voice.name })}">${t('portal-voices-delete')}</button>
</form></td></tr>`;
  });
  return html`<div class="table-scroll" role="region" aria-label="${t('portal-voices-title')}" tabindex="0"><table class="voices">
<thead><tr><th scope="col">${t('portal-voices-col-name')}</th><th scope="col">${t('portal-voices-col-created')}</th><th scope="col">${t('portal-voices-col-speech')}</th>${withExcerpt ? html`<th scope="col">${t('portal-voices-col-excerpt')}</th>` : ''}<th scope="col">${t('portal-voices-col-action')}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function excerptCell(voice: VoiceRow, excerpt: VoiceExcerptState, { t }: PortalReader): SafeHtml {
  if (excerpt === 'stored') {
    return html`<audio controls preload="none" src="/portal/voices/${voice.id}/excerpt" aria-label="${t('portal-voices-excerpt-label', { name: voice.name })}"></audio>`;
  }
  return html`<span class="hint">${t(excerpt === 'none' ? 'portal-voices-excerpt-none' : 'portal-voices-excerpt-gone')}</span>`;
}
