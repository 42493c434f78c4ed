import type { Response } from 'express';
import { html } from '../html.ts';
import { readerOf } from '../portal-locale.ts';
import type { PortalRequestSession } from '../portal-session.ts';
import { sendPage } from './layout.ts';

/** Statuses with a title of their own (catalog key `portal-error-title-<status>`); others get the general one. */
const TITLED = new Set([400, 401, 403, 404, 409, 413, 415, 422, 429, 503]);

/**
 * Sends an error page with `status`, a title for it in the reader's language, the plain-words
 * `detail` and a way on. `note` (optional) goes above the detail (e.g. that the detail is the
 * service's own English); `help` is a portal page that helps (the list of languages).
 */
export function sendErrorPage(
  res: Response,
  session: PortalRequestSession | undefined,
  status: number,
  detail: string,
  note?: string,
  help?: { href: string; text: string; before: string; after: string },
): void {
  const { t } = readerOf(res.locals);
  const back = session
    ? html`<a href="/portal">${t('portal-error-home')}</a>`
    : html`<a href="/portal">${t('portal-error-how-to-sign-in')}</a>`;
  const lead = note ? html`<p class="hint">${note}</p>` : '';
  const helps = help ? html`<p>${help.before}<a href="${help.href}">${help.text}</a>${help.after}</p>` : '';
  sendPage(res, {
    title: t(TITLED.has(status) ? `portal-error-title-${status}` : 'portal-error-title-other'),
    session,
    status,
    body: html`<div class="notice error" role="alert">${lead}<p>${detail}</p>${helps}</div><p>${back}</p>`,
  });
}
