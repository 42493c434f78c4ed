import { Router } from 'express';
import { listAccountPredictions, serviceRootUrl, summarizeDailyMinutes, type ServiceContext } from '@transcribe/core';
import { buildOpenApiDocument } from './openapi.ts';
import { sendPage } from './pages/layout.ts';
import { referencePage } from './pages/reference-page.ts';
import { usagePage } from './pages/usage-page.ts';
import { requireSession } from './portal-guards.ts';

/**
 * Usage (the person's predictions and audio minutes per day over the cache window, spec 2.6.1)
 * and the API reference (the OpenAPI document as a page; public, like `/openapi.json`).
 */
export function usageRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const { db } = ctx.database;
  const windowDays = ctx.config.cacheTtlDays;

  router.get('/usage', requireSession, async (_req, res) => {
    const session = res.locals.portal!;
    const [rows, days] = await Promise.all([
      listAccountPredictions(db, session.owner, windowDays),
      summarizeDailyMinutes(db, session.owner, windowDays),
    ]);
    sendPage(res, { title: 'Usage', session, current: '/portal/usage', body: usagePage(rows, days, windowDays) });
  });

  router.get('/reference', (_req, res) => {
    const root = serviceRootUrl(ctx);
    sendPage(res, {
      title: 'API reference',
      session: res.locals.portal,
      current: '/portal/reference',
      body: referencePage(buildOpenApiDocument(root), root),
    });
  });

  return router;
}
