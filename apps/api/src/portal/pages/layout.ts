import type { Response } from 'express';
import { html, type HtmlValue, type SafeHtml } from '../html.ts';
import type { PortalReader } from '../portal-i18n.ts';
import { readerOf } from '../portal-locale.ts';
import type { PortalRequestSession } from '../portal-session.ts';

/** The sections of the portal, in menu order: address, catalog key of the label, and whether it needs a session. */
const NAV: { href: string; label: string; signedIn: boolean }[] = [
  { href: '/portal', label: 'portal-nav-home', signedIn: false },
  { href: '/portal/api', label: 'portal-nav-api', signedIn: true },
  { href: '/portal/transcribe', label: 'portal-nav-transcribe', signedIn: true },
  { href: '/portal/usage', label: 'portal-nav-usage', signedIn: true },
  { href: '/portal/voices', label: 'portal-nav-voices', signedIn: true },
  { href: '/portal/reference', label: 'portal-nav-reference', signedIn: false },
];

/**
 * Texts portal.js shows (copy buttons, the upload, following a transcription), in the page's
 * language; handed over as JSON in `<body data-texts>` (no inline script: the CSP allows none).
 */
const SCRIPT_TEXT_KEYS = [
  'portal-copied',
  'portal-copied-announce',
  'portal-copy-failed',
  'portal-uploaded',
  'portal-sending-link',
  'portal-upload-failed',
  'portal-lost-contact',
];

export interface PageOptions {
  title: string;
  /** The signed-in person, or undefined on public pages. */
  session: PortalRequestSession | undefined;
  /** Menu entry to mark as the current page (its href). */
  current?: string;
  body: HtmlValue;
  /** Extra elements for `<head>` (e.g. a `<noscript>` refresh). */
  head?: SafeHtml;
  status?: number;
}

/** Sends a full portal page in the request's language (res.locals.reader), greeting the signed-in person by name. */
export function sendPage(res: Response, options: PageOptions): void {
  res
    .status(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(renderPage(options, readerOf(res.locals), res.locals.displayName).text);
}

/**
 * The HTML document of a page: one `<h1>`, a skip link, the menu, a sign-out button with the
 * person's name when signed in, `<html lang>` of the reader's language.
 */
export function renderPage(options: PageOptions, reader: PortalReader, displayName?: string): SafeHtml {
  const { session } = options;
  const { t } = reader;
  const links = NAV.filter((item) => session || !item.signedIn).map(
    (item) => html`<li><a href="${item.href}"${item.href === options.current ? html` aria-current="page"` : ''}>${t(item.label)}</a></li>`,
  );
  const scriptTexts = {
    ...Object.fromEntries(SCRIPT_TEXT_KEYS.map((key) => [key, t(key)])),
    'portal-answered-status': t('portal-answered-status', { status: '%s' }),
  };
  return html`<!doctype html>
<html lang="${reader.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${options.title} · ${t('portal-name')}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/portal/static/portal.css">
<script src="/portal/static/portal.js" defer></script>
${options.head}
</head>
<body data-texts="${JSON.stringify(scriptTexts)}">
<a class="skip-link" href="#main">${t('portal-skip')}</a>
<header class="top">
  <a class="brand" href="/portal">${t('portal-name')}</a>
  <nav aria-label="Portal"><ul>${links}</ul></nav>
  ${session ? signOut(session, reader, displayName ?? '') : ''}
</header>
<main id="main" tabindex="-1">
<h1>${options.title}</h1>
${options.body}
</main>
<footer class="bottom"><p>${t('portal-footer')} · <a href="/openapi.json">${t('portal-footer-openapi')}</a></p></footer>
</body>
</html>`;
}

function signOut(session: PortalRequestSession, { t }: PortalReader, name: string): SafeHtml {
  return html`<form class="sign-out" method="post" action="/portal/logout">
    <span class="who">${t('portal-signed-in-as')} <strong>${name}</strong></span>
    <input type="hidden" name="csrf" value="${session.csrfToken}">
    <button type="submit" class="secondary">${t('portal-sign-out')}</button>
  </form>`;
}
