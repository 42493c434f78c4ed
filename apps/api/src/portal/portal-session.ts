import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { findPortalSession, serviceRootUrl, type ServiceContext } from '@transcribe/core';

/** Cookie of a signed-in browser (HttpOnly, SameSite=Lax, Secure over https, Path=/portal). */
export const SESSION_COOKIE = 'portal_session';
/** Short-lived cookie that pairs the sign-in form with the browser that opened the link (login CSRF). */
export const LOGIN_COOKIE = 'portal_login';

/** The signed-in person of a request, kept in `res.locals.portal`. */
export interface PortalRequestSession {
  /** Owner of the person's keys, e.g. `telegram:42`. */
  owner: string;
  /** The value every form of this session must send back (field `csrf` or header `X-CSRF-Token`). */
  csrfToken: string;
  /** The cookie's secret (to end the session). */
  secret: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      portal?: PortalRequestSession;
    }
  }
}

/** The value of cookie `name` in the request (an Express request or a WebSocket upgrade's), or undefined. */
export function readCookie(req: Pick<IncomingMessage, 'headers'>, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(rest.join('='));
    } catch {
      return undefined; // a malformed escape (`%`, `%ZZ`) is no session, not a server error
    }
  }
  return undefined;
}

/** A `Set-Cookie` value: HttpOnly and SameSite=Lax always, Secure when `secure`; `maxAgeSeconds` 0 deletes it. */
export function cookieHeader(name: string, value: string, options: { path: string; maxAgeSeconds: number; secure: boolean }): string {
  const parts = [
    `${name}=${encodeURIComponent(value)}`,
    `Path=${options.path}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** True when the portal is served over https: the request came over TLS, or PUBLIC_BASE_URL is https. */
export function isSecure(ctx: ServiceContext, req: Request): boolean {
  return req.secure || serviceRootUrl(ctx).startsWith('https:');
}

/** The CSRF token of a session: HMAC-SHA256 of a fixed label keyed by the cookie's secret (a page of another site cannot compute it). */
export function csrfTokenFor(secret: string): string {
  return createHmac('sha256', secret).update('portal-csrf-v1').digest('base64url');
}

/** Constant-time comparison of an expected token with what a form or header carried. */
export function tokensMatch(expected: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(presented), Buffer.from(expected));
}

/** Middleware: puts the live session of the cookie (if any) in `res.locals.portal`. */
export function loadPortalSession(ctx: ServiceContext): RequestHandler {
  return async (req, res, next) => {
    const secret = readCookie(req, SESSION_COOKIE);
    const session = secret ? await findPortalSession(ctx.database.db, secret) : null;
    if (session && secret) res.locals.portal = { owner: session.owner, csrfToken: csrfTokenFor(secret), secret };
    next();
  };
}

/** Sets or deletes (secret null) the session cookie. */
export function setSessionCookie(ctx: ServiceContext, req: Request, res: Response, secret: string | null, maxAgeSeconds = 0): void {
  res.append(
    'Set-Cookie',
    cookieHeader(SESSION_COOKIE, secret ?? '', { path: '/portal', maxAgeSeconds: secret ? maxAgeSeconds : 0, secure: isSecure(ctx, req) }),
  );
}
