import type { Response } from 'express';
import { describePortalOwner } from '@transcribe/core';
import { html, type HtmlValue, type SafeHtml } from '../html.ts';
import type { PortalRequestSession } from '../portal-session.ts';

/** The sections of the portal, in menu order. */
const NAV: { href: string; label: string; signedIn: boolean }[] = [
  { href: '/portal', label: 'Home', signedIn: false },
  { href: '/portal/api', label: 'API key', signedIn: true },
  { href: '/portal/transcribe', label: 'Transcribe', signedIn: true },
  { href: '/portal/usage', label: 'Usage', signedIn: true },
  { href: '/portal/reference', label: 'API reference', signedIn: false },
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

/** Sends a full portal page: one `<h1>`, a skip link, the menu, a sign-out button when signed in. */
export function sendPage(res: Response, options: PageOptions): void {
  res
    .status(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(renderPage(options).text);
}

/** The HTML document of a page (see sendPage). */
export function renderPage(options: PageOptions): SafeHtml {
  const { session } = options;
  const links = NAV.filter((item) => session || !item.signedIn).map(
    (item) => html`<li><a href="${item.href}"${item.href === options.current ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${options.title} · Transcription portal</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/portal/static/portal.css">
<script src="/portal/static/portal.js" defer></script>
${options.head}
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<header class="top">
  <a class="brand" href="/portal">Transcription portal</a>
  <nav aria-label="Portal"><ul>${links}</ul></nav>
  ${session ? signOut(session) : ''}
</header>
<main id="main" tabindex="-1">
<h1>${options.title}</h1>
${options.body}
</main>
<footer class="bottom"><p>Self-hosted transcription service · <a href="/openapi.json">OpenAPI document</a></p></footer>
</body>
</html>`;
}

function signOut(session: PortalRequestSession): SafeHtml {
  return html`<form class="sign-out" method="post" action="/portal/logout">
    <span class="who">Signed in as <strong>${describePortalOwner(session.owner)}</strong></span>
    <input type="hidden" name="csrf" value="${session.csrfToken}">
    <button type="submit" class="secondary">Sign out</button>
  </form>`;
}
