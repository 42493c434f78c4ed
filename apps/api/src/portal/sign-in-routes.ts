import { randomBytes } from 'node:crypto';
import express, { Router } from 'express';
import {
  endPortalSession,
  listOwnerApiKeys,
  PORTAL_SESSION_TTL_SECONDS,
  redeemLoginLink,
  startPortalSession,
  type ServiceContext,
} from '@transcribe/core';
import { sendPage } from './pages/layout.ts';
import { loginConfirmPage, signedInHome, signedOutHome } from './pages/home-pages.ts';
import { hasCsrfToken, refuse, refuseCsrf } from './portal-guards.ts';
import { readerOf } from './portal-locale.ts';
import { cookieHeader, isSecure, LOGIN_COOKIE, readCookie, setSessionCookie, tokensMatch } from './portal-session.ts';

const form = express.urlencoded({ extended: false, limit: '16kb' });
/** How long the sign-in page may stay open before its button is pressed, in seconds. */
const LOGIN_FORM_SECONDS = 15 * 60;

/**
 * Sign-in without passwords: the home page, the page a one-time link opens (GET shows a
 * button, so link previews never use the link up), the sign-in post (login CSRF: the form's token
 * must match a cookie set by that page), and sign-out.
 */
export function signInRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const { db } = ctx.database;

  router.get('/', async (req, res) => {
    const session = res.locals.portal;
    const reader = readerOf(res.locals);
    const title = reader.t('portal-name');
    if (!session) return sendPage(res, { title, session, current: '/portal', body: signedOutHome(req.query.signed_out === '1', reader) });
    const keys = await listOwnerApiKeys(db, session.owner);
    const body = signedInHome(res.locals.displayName ?? '', keys.length > 0, reader);
    sendPage(res, { title, session, current: '/portal', body });
  });

  router.get('/login', (req, res) => {
    const reader = readerOf(res.locals);
    const token = typeof req.query.token === 'string' ? req.query.token : '';
    if (!token) return refuse(req, res, 400, reader.t('portal-login-needs-token'));
    const formToken = randomBytes(24).toString('base64url');
    res.append(
      'Set-Cookie',
      cookieHeader(LOGIN_COOKIE, formToken, { path: '/portal/login', maxAgeSeconds: LOGIN_FORM_SECONDS, secure: isSecure(ctx, req) }),
    );
    sendPage(res, {
      title: reader.t('portal-sign-in-heading'),
      session: res.locals.portal,
      body: loginConfirmPage(token, formToken, reader),
    });
  });

  router.post('/login', form, async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const cookie = readCookie(req, LOGIN_COOKIE);
    if (!cookie || !tokensMatch(cookie, body.login_csrf)) {
      return refuse(req, res, 403, readerOf(res.locals).t('portal-login-other-browser'));
    }
    const { owner } = await redeemLoginLink(db, body.token);
    if (res.locals.portal) await endPortalSession(db, res.locals.portal.secret);
    const session = await startPortalSession(db, owner);
    setSessionCookie(ctx, req, res, session.secret, PORTAL_SESSION_TTL_SECONDS);
    res.append('Set-Cookie', cookieHeader(LOGIN_COOKIE, '', { path: '/portal/login', maxAgeSeconds: 0, secure: isSecure(ctx, req) }));
    res.redirect(303, '/portal');
  });

  router.post('/logout', form, async (req, res) => {
    if (res.locals.portal) {
      if (!hasCsrfToken(req, res)) return refuseCsrf(req, res);
      await endPortalSession(db, res.locals.portal.secret);
    }
    setSessionCookie(ctx, req, res, null);
    res.redirect(303, '/portal?signed_out=1');
  });

  return router;
}
