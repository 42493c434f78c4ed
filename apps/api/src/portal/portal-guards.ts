import type { Request, RequestHandler, Response } from 'express';
import { sendProblem } from '../http/map-error.ts';
import { sendErrorPage } from './pages/error-page.ts';
import { readerOf } from './portal-locale.ts';
import { tokensMatch } from './portal-session.ts';

/** True when the caller wants JSON (the portal's own scripts) rather than a page. */
export function wantsJson(req: Request): boolean {
  return (req.get('accept') ?? '').includes('application/json') || req.path.endsWith('.json');
}

/** Answers a refused request as a page, or as a problem object for scripts. */
export function refuse(req: Request, res: Response, status: number, detail: string): void {
  if (wantsJson(req)) return sendProblem(res, status, detail);
  sendErrorPage(res, res.locals.portal, status, detail);
}

/** Middleware: 401 (page or problem) unless the request has a live session. */
export const requireSession: RequestHandler = (req, res, next) => {
  if (!res.locals.portal) return refuse(req, res, 401, readerOf(res.locals).t('portal-sign-in-first'));
  next();
};

/** True when the request carries the session's CSRF token as header `X-CSRF-Token` or form field `csrf`. */
export function hasCsrfToken(req: Request, res: Response, formValue?: unknown): boolean {
  const expected = res.locals.portal?.csrfToken;
  if (!expected) return false;
  const presented = req.get('x-csrf-token') ?? formValue ?? (req.body as Record<string, unknown> | undefined)?.csrf;
  return tokensMatch(expected, presented);
}

/** Middleware for url-encoded forms of a session: 403 unless hasCsrfToken. */
export const requireCsrf: RequestHandler = (req, res, next) => {
  if (!hasCsrfToken(req, res)) return refuseCsrf(req, res);
  next();
};

/** The 403 answer to a form without the right CSRF token. */
export function refuseCsrf(req: Request, res: Response): void {
  refuse(req, res, 403, readerOf(res.locals).t('portal-csrf-refused'));
}
