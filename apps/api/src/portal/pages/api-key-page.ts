import type { OwnerApiKey, ReissuedApiKey } from '@transcribe/core';
import { html, type SafeHtml } from '../html.ts';
import type { PortalRequestSession } from '../portal-session.ts';
import { clientExamples } from './client-examples.ts';
import { formatDateTime } from './format.ts';

/** Settings → API (spec 5.2): the keys that work now and the "Get key" form. */
export function apiKeyPage(session: PortalRequestSession, keys: OwnerApiKey[]): SafeHtml {
  return html`<p>Your API key lets your programs use the transcription API. Keep it secret, outside your source code.</p>
<h2>Your keys</h2>
${keys.length === 0 ? html`<p>You have no API key yet.</p>` : keyTable(keys)}
<h2>${keys.length === 0 ? 'Get a key' : 'Get a new key'}</h2>
${getKeyForm(session, keys.length > 0)}`;
}

function keyTable(keys: OwnerApiKey[]): SafeHtml {
  const rows = keys.map(
    (key) => html`<tr><td><code>${key.prefix}…</code></td><td>${formatDateTime(key.createdAt)}</td><td>${key.label}</td>
      <td>${key.revokedAt ? html`Stops working at ${formatDateTime(key.revokedAt)}` : 'Works'}</td></tr>`,
  );
  return html`<div class="table-scroll" role="region" aria-label="Your keys" tabindex="0"><table>
<thead><tr><th scope="col">Key starts with</th><th scope="col">Created</th><th scope="col">Label</th><th scope="col">Status</th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function getKeyForm(session: PortalRequestSession, hasKeys: boolean): SafeHtml {
  const choice = hasKeys
    ? html`<fieldset><legend>When should your current key stop working?</legend>
  <label class="choice"><input type="radio" name="old_key" value="now" checked> Right away</label>
  <label class="choice"><input type="radio" name="old_key" value="later"> In 5 minutes (time to switch your programs over)</label>
</fieldset>`
    : '';
  return html`<form method="post" action="/portal/api/key" class="stack">
  <input type="hidden" name="csrf" value="${session.csrfToken}">
  ${hasKeys ? html`<p>A new key replaces the current one.</p>` : ''}
  ${choice}
  <button type="submit" class="primary">Get key</button>
</form>`;
}

/** The page right after "Get key": the new key shown once, with a copy button and client examples. */
export function newKeyPage(key: ReissuedApiKey, rootUrl: string): SafeHtml {
  const old =
    key.revokedKeyIds.length === 0
      ? ''
      : key.oldKeysStopAt.getTime() <= Date.now() + 1000
        ? html`<p>Your previous key no longer works.</p>`
        : html`<p>Your previous key stops working at ${formatDateTime(key.oldKeysStopAt)}.</p>`;
  return html`<div class="notice success" role="status">
  <p><strong>Here is your new API key. It is shown only this once:</strong> copy it now and keep it somewhere safe.</p>
  <div class="copy-row">
    <label for="new-key" class="visually-hidden">Your new API key</label>
    <input id="new-key" class="secret" type="text" readonly value="${key.secret}" spellcheck="false" autocomplete="off">
    <button type="button" class="primary" data-copy="new-key">Copy key</button>
  </div>
  ${old}
</div>
<h2>Use it</h2>
<p>The base address is <code>${rootUrl}/v1/replicate/v1</code> and the model is <code>service/transcribe</code>.</p>
${clientExamples(rootUrl, key.secret).map(exampleBlock)}
<p><a href="/portal/reference">The full API reference</a> · <a href="/portal/api">Back to your keys</a></p>`;
}

function exampleBlock(example: { id: string; title: string; note: string; code: string }): SafeHtml {
  return html`<section class="example" aria-labelledby="ex-${example.id}">
  <h3 id="ex-${example.id}">${example.title}</h3>
  <p>${example.note}</p>
  <pre id="code-${example.id}" tabindex="0"><code>${example.code}</code></pre>
  <button type="button" class="secondary" data-copy="code-${example.id}">Copy ${example.title === 'curl' ? 'curl commands' : 'code'}</button>
</section>`;
}
