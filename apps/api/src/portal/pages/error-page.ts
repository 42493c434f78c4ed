import type { Response } from 'express';
import { html } from '../html.ts';
import type { PortalRequestSession } from '../portal-session.ts';
import { sendPage } from './layout.ts';

const TITLES: Record<number, string> = {
  400: 'The request could not be read',
  401: 'Please sign in',
  403: 'The form could not be accepted',
  404: 'Not found',
  409: 'Please try again',
  413: 'The file is too large',
  415: 'This kind of request is not accepted',
  422: 'Please check your input',
  429: 'Too many requests',
  500: 'Something went wrong',
  502: 'Something went wrong',
  503: 'The service is busy',
  504: 'Something went wrong',
};

/** Sends an error page with `status`, a title for it, the plain-words `detail` and a way on. */
export function sendErrorPage(res: Response, session: PortalRequestSession | undefined, status: number, detail: string): void {
  const back = session ? html`<a href="/portal">Go to the portal’s home page</a>` : html`<a href="/portal">How to sign in</a>`;
  sendPage(res, {
    title: TITLES[status] ?? 'Something went wrong',
    session,
    status,
    body: html`<div class="notice error" role="alert"><p>${detail}</p></div><p>${back}</p>`,
  });
}
