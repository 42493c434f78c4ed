import { Router } from 'express';
import { listAccountPredictions, serviceRootUrl, summarizeDailyMinutes, type ServiceContext } from '@transcribe/core';
import { buildOpenApiDocument } from './openapi.ts';
import { describeQueuePlace } from './pages/format.ts';
import { languagesPage } from './pages/languages-page.ts';
import { sendPage } from './pages/layout.ts';
import { referencePage } from './pages/reference-page.ts';
import { usagePage } from './pages/usage-page.ts';
import { requireSession } from './portal-guards.ts';
import { readerOf } from './portal-locale.ts';

/**
 * Usage (the person's predictions and audio minutes per day over the cache window, spec 2.6.1),
 * the API reference (the OpenAPI document as a page; public, like `/openapi.json`) and the list of
 * languages (public: the portal's language errors link it).
 */
export function usageRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const { db } = ctx.database;
  const windowDays = ctx.config.cacheTtlDays;

  router.get('/usage', requireSession, async (_req, res) => {
    const session = res.locals.portal!;
    const reader = readerOf(res.locals);
    const [rows, days] = await Promise.all([
      listAccountPredictions(db, session.owner, windowDays),
      summarizeDailyMinutes(db, session.owner, windowDays),
    ]);
    const waits = new Map<string, string>(); // unfinished ones: place and wait in words (the API's queue member)
    for (const row of rows.filter((item) => item.status === 'processing')) {
      const place = await ctx.queueView?.placeById(row.id).catch(() => null);
      if (place) waits.set(row.id, describeQueuePlace(place, reader));
    }
    const body = usagePage(rows, days, windowDays, waits, reader);
    sendPage(res, { title: reader.t('portal-usage-title'), session, current: '/portal/usage', body });
  });

  router.get('/reference', (_req, res) => {
    const root = serviceRootUrl(ctx);
    const reader = readerOf(res.locals);
    sendPage(res, {
      title: reader.t('portal-reference-title'),
      session: res.locals.portal,
      current: '/portal/reference',
      body: referencePage(buildOpenApiDocument(root), root, reader),
    });
  });

  router.get('/languages', (_req, res) => {
    const reader = readerOf(res.locals);
    sendPage(res, {
      title: reader.t('portal-languages-title'),
      session: res.locals.portal,
      body: languagesPage(ctx.engine.languages, reader),
    });
  });

  return router;
}
