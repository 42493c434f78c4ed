import { html, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';

/** The portal's front page for a signed-out visitor: how to get a sign-in link (no passwords). */
export function signedOutHome(signedOutJustNow: boolean, { t }: PortalReader): SafeHtml {
  const reference = html`<a href="/portal/reference">${t('portal-nav-reference')}</a>`;
  return html`${signedOutJustNow ? html`<div class="notice" role="status"><p>${t('portal-signed-out-notice')}</p></div>` : ''}
<p>${t('portal-intro')}</p>
<h2>${t('portal-sign-in-heading')}</h2>
<p>${t('portal-no-passwords')}</p>
<ul class="steps">
  <li><strong>${t('portal-with-bot')}</strong> ${t('portal-with-bot-how')}</li>
  <li><strong>${t('portal-on-server')}</strong> ${withCode(t('portal-on-server-how', { command: '\u0000' }), 'npm run portal -- login-link')}</li>
</ul>
<p>${withHtml(t('portal-reference-public', { link: '\u0000' }), reference)}</p>`;
}

/** The page a sign-in link opens: one button, so link previews (which only GET) never use the link up. */
export function loginConfirmPage(token: string, formToken: string, { t, locale }: PortalReader): SafeHtml {
  // The post keeps the page's language: a refusal (a used link) is then told in it too.
  return html`<p>${t('portal-login-explain')}</p>
<form method="post" action="/portal/login?lang=${locale}" class="stack">
  <input type="hidden" name="token" value="${token}">
  <input type="hidden" name="login_csrf" value="${formToken}">
  <button type="submit" class="primary" autofocus>${t('portal-sign-in-button')}</button>
</form>`;
}

/** The signed-in home page: a greeting by name, then the three things to do, in order. */
export function signedInHome(name: string, hasKey: boolean, { t }: PortalReader): SafeHtml {
  return html`<p>${t('portal-welcome', { name })}</p>
<ol class="cards">
  <li><h2><a href="/portal/api">${t(hasKey ? 'portal-card-key-have' : 'portal-card-key')}</a></h2>
    <p>${t('portal-card-key-text')}</p></li>
  <li><h2><a href="/portal/transcribe">${t('portal-card-transcribe')}</a></h2>
    <p>${t('portal-card-transcribe-text')}</p></li>
  <li><h2><a href="/portal/usage">${t('portal-card-usage')}</a></h2>
    <p>${t('portal-card-usage-text')}</p></li>
</ol>`;
}

/**
 * A translated sentence with markup in its place: the catalog text is given `\u0000` for the
 * variable (Fluent never makes that character), which is then replaced by `inner`, the rest escaped.
 */
export function withHtml(sentence: string, inner: SafeHtml): SafeHtml {
  const [before = '', after = ''] = sentence.split('\u0000');
  return html`${before}${inner}${after}`;
}

/** withHtml with `<code>text</code>`. */
export function withCode(sentence: string, code: string): SafeHtml {
  return withHtml(sentence, html`<code>${code}</code>`);
}
