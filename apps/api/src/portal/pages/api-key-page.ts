import type { OwnerApiKey, ReissuedApiKey } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';
import type { PortalRequestSession } from '../portal-session.ts';
import { clientBaseUrls, clientExamples } from './client-examples.ts';
import { formatDateTime } from './format.ts';
import { withCode } from './home-pages.ts';
import { voiceTable, type ListedVoice } from './voices-page.ts';

/**
 * Settings → API (spec 5.2): the keys that work now and the "Get key" form; then the account's voices
 * (name, created, seconds of speech, Delete) and a link to the Voices page. `voices.deleted`: a voice was just deleted.
 */
export function apiKeyPage(
  session: PortalRequestSession,
  keys: OwnerApiKey[],
  reader: PortalReader,
  voices: { voices: ListedVoice[]; deleted: boolean } = { voices: [], deleted: false },
): SafeHtml {
  const { t } = reader;
  return html`<p>${t('portal-key-intro')}</p>
<h2>${t('portal-key-yours')}</h2>
${keys.length === 0 ? html`<p>${t('portal-key-none')}</p>` : keyTable(keys, reader)}
<h2>${t(keys.length === 0 ? 'portal-key-get' : 'portal-key-get-new')}</h2>
${getKeyForm(session, keys.length > 0, reader)}
<h2 id="voices">${t('portal-voices-account')}</h2>
${voices.deleted ? html`<div class="notice success" role="status"><p>${t('portal-voices-deleted')}</p></div>` : ''}
${voices.voices.length === 0 ? html`<p>${t('portal-voices-none')}</p>` : voiceTable(voices.voices, session.csrfToken, 'api', reader)}
<p><a href="/portal/voices">${t('portal-voices-manage')}</a></p>`;
}

function keyTable(keys: OwnerApiKey[], { t }: PortalReader): SafeHtml {
  const rows = keys.map(
    (key) => html`<tr><td><code>${key.prefix}…</code></td><td>${formatDateTime(key.createdAt)}</td><td>${key.label}</td>
      <td>${key.revokedAt ? t('portal-key-stops-at', { time: formatDateTime(key.revokedAt) }) : t('portal-key-works')}</td></tr>`,
  );
  return html`<div class="table-scroll" role="region" aria-label="${t('portal-key-yours')}" tabindex="0"><table>
<thead><tr><th scope="col">${t('portal-key-col-prefix')}</th><th scope="col">${t('portal-key-col-created')}</th><th scope="col">${t('portal-key-col-label')}</th><th scope="col">${t('portal-key-col-status')}</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function getKeyForm(session: PortalRequestSession, hasKeys: boolean, { t }: PortalReader): SafeHtml {
  const choice = hasKeys
    ? html`<fieldset><legend>${t('portal-key-when-old-stops')}</legend>
  <label class="choice"><input type="radio" name="old_key" value="now" checked> ${t('portal-key-right-away')}</label>
  <label class="choice"><input type="radio" name="old_key" value="later"> ${t('portal-key-in-5-minutes')}</label>
</fieldset>`
    : '';
  return html`<form method="post" action="/portal/api/key" class="stack">
  <input type="hidden" name="csrf" value="${session.csrfToken}">
  ${hasKeys ? html`<p>${t('portal-key-replaces')}</p>` : ''}
  ${choice}
  <button type="submit" class="primary">${t('portal-key-button')}</button>
</form>`;
}

/**
 * The page right after "Get key": the new key shown once, with a copy button, the base URL of each
 * client (the same three as the bot's key message) and examples for each.
 */
export function newKeyPage(key: ReissuedApiKey, rootUrl: string, reader: PortalReader): SafeHtml {
  const { t } = reader;
  const old =
    key.revokedKeyIds.length === 0
      ? ''
      : key.oldKeysStopAt.getTime() <= Date.now() + 1000
        ? html`<p>${t('portal-key-old-gone')}</p>`
        : html`<p>${t('portal-key-old-stops', { time: formatDateTime(key.oldKeysStopAt) })}</p>`;
  const bases = clientBaseUrls(rootUrl);
  return html`<div class="notice success" role="status">
  <p><strong>${t('portal-key-shown-once')}</strong> ${t('portal-key-copy-now')}</p>
  <div class="copy-row">
    <label for="new-key" class="visually-hidden">${t('portal-key-label')}</label>
    <input id="new-key" class="secret" type="text" readonly value="${key.secret}" spellcheck="false" autocomplete="off">
    <button type="button" class="primary" data-copy="new-key">${t('portal-key-copy')}</button>
  </div>
  ${old}
</div>
<h2>${t('portal-key-use')}</h2>
<p>${withCode(t('portal-key-bases', { model: '\u0000', openaiModel: 'whisper-1' }), 'service/transcribe')}</p>
<ul class="base-urls">
  <li>${t('portal-key-base-python')} <code>${bases.python}</code></li>
  <li>${t('portal-key-base-npm')} <code>${bases.npm}</code></li>
  <li>${t('portal-key-base-openai')} <code>${bases.openai}</code></li>
</ul>
${clientExamples(rootUrl, key.secret, reader).map(exampleBlock)}
<p><a href="/portal/reference">${t('portal-key-full-reference')}</a> · <a href="/portal/api">${t('portal-key-back')}</a></p>`;
}

function exampleBlock(example: { id: string; title: string; note: string; code: string; copy: string }): SafeHtml {
  return html`<section class="example" aria-labelledby="ex-${example.id}">
  <h3 id="ex-${example.id}">${example.title}</h3>
  <p>${example.note}</p>
  <pre id="code-${example.id}" tabindex="0"><code>${example.code}</code></pre>
  <button type="button" class="secondary" data-copy="code-${example.id}">${example.copy}</button>
</section>`;
}
