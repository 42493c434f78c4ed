import { fileURLToPath } from 'node:url';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { serviceRootUrl, type ServiceContext } from '@transcribe/core';
import { handleError } from '../http/map-error.ts';
import { describePortalError } from './describe-portal-error.ts';
import { portalLocale, readerOf } from './portal-locale.ts';
import { keyRoutes } from './key-routes.ts';
import { buildOpenApiDocument } from './openapi.ts';
import { sendErrorPage } from './pages/error-page.ts';
import { wantsJson } from './portal-guards.ts';
import { loadPortalSession } from './portal-session.ts';
import { predictionViewRoutes } from './prediction-view-routes.ts';
import { signInRoutes } from './sign-in-routes.ts';
import { speakerRoutes } from './speaker-routes.ts';
import { transcribeRoutes } from './transcribe-routes.ts';
import { usageRoutes } from './usage-routes.ts';
import { voicePageRoutes } from './voice-page-routes.ts';

/** portal.js and portal.css (no build step). */
const STATIC_DIR = fileURLToPath(new URL('./static/', import.meta.url));

/** Headers of every portal page: a strict CSP (scripts and styles from the portal only), no framing, no caching, no referrer. */
const securityHeaders: RequestHandler = (_req, res, next) => {
  res.set({
    'Content-Security-Policy':
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  });
  next();
};

/**
 * Errors of portal requests: a page with the API's status and the detail in the reader's words
 * (describe-portal-error.ts), or the API's problem object for scripts.
 */
const portalErrors: ErrorRequestHandler = (error, req, res, next) => {
  if (res.headersSent) return void req.socket.destroy(); // answered already (a body cut for coming too slowly)
  if (wantsJson(req)) return handleError(error, req, res, next);
  const reader = readerOf(res.locals);
  const problem = describePortalError(error, req, reader);
  sendErrorPage(
    res,
    res.locals.portal,
    problem.status,
    problem.message,
    problem.english ? reader.t('portal-error-details') : undefined,
    problem.help,
  );
};

/**
 * The account portal (spec 5.2) under `/portal`, served by the service itself, and the
 * OpenAPI document of the HTTP API at `/openapi.json`. Mounted on the app before its 404 handler.
 */
export function portalRoutes(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*').json(buildOpenApiDocument(serviceRootUrl(ctx)));
  });
  const portal = Router();
  portal.use(
    '/static',
    express.static(STATIC_DIR, { index: false, maxAge: '1h', setHeaders: (res) => res.set('X-Content-Type-Options', 'nosniff') }),
  );
  portal.use(securityHeaders, loadPortalSession(ctx), portalLocale(ctx));
  for (const routes of [signInRoutes, keyRoutes, transcribeRoutes, predictionViewRoutes, speakerRoutes, usageRoutes, voicePageRoutes])
    portal.use(routes(ctx));
  portal.use((req, res) => sendErrorPage(res, res.locals.portal, 404, readerOf(res.locals).t('portal-no-such-page')));
  portal.use(portalErrors);
  router.use('/portal', portal);
  return router;
}
