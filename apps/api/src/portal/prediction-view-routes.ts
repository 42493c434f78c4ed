import express, { Router } from 'express';
import {
  AppError,
  cancelPrediction,
  findAccountPrediction,
  renderTranscript,
  type PredictionRow,
  type ServiceContext,
  type Transcript,
} from '@transcribe/core';
import { describePortalProgress } from './describe-portal-progress.ts';
import { html } from './html.ts';
import { sendPage } from './pages/layout.ts';
import { DOWNLOADS, predictionPage } from './pages/prediction-page.ts';
import { requireCsrf, requireSession } from './portal-guards.ts';

const form = express.urlencoded({ extended: false, limit: '16kb' });

/** Page title by status: a failed or canceled transcription is not "Transcribing". */
const TITLES: Record<string, string> = { succeeded: 'Transcript', failed: 'Failed', canceled: 'Canceled' };

const MEDIA_TYPES: Record<string, string> = {
  json: 'application/json',
  json2: 'application/json',
  text: 'text/plain',
  srt: 'application/x-subrip',
  lrc: 'text/plain',
  results: 'application/json',
};

/**
 * One transcription of the signed-in person (any namespace): its page, its progress as JSON for
 * portal.js (from `logs`), and downloads of the transcript in every format (spec 2.2
 * output_format) and of the post-processing results; Cancel (a form POST with the session's CSRF
 * token) stops a waiting or running one with the core's cancelPrediction, under the key it was made
 * with, whichever namespace (a bot recording's chat then says it was canceled).
 */
export function predictionViewRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const { db } = ctx.database;

  router.get('/predictions/:id', requireSession, async (req, res) => {
    const row = await findAccountPrediction(db, String(req.params.id), res.locals.portal!.owner);
    const progress = describePortalProgress(row);
    sendPage(res, {
      title: TITLES[row.status] ?? 'Transcribing',
      session: res.locals.portal,
      body: predictionPage(row, progress, res.locals.portal!.csrfToken),
      head: progress.done ? undefined : html`<noscript><meta http-equiv="refresh" content="3"></noscript>`,
    });
  });

  router.post('/predictions/:id/cancel', requireSession, form, requireCsrf, async (req, res) => {
    const row = await findAccountPrediction(db, String(req.params.id), res.locals.portal!.owner);
    await cancelPrediction(ctx, row.id, row.apiKeyId); // an ended one stays as it is
    res.redirect(303, `/portal/predictions/${row.id}`);
  });

  router.get('/predictions/:id/progress.json', requireSession, async (req, res) => {
    const row = await findAccountPrediction(db, String(req.params.id), res.locals.portal!.owner);
    res.json(describePortalProgress(row));
  });

  router.get('/predictions/:id/download/:format', requireSession, async (req, res) => {
    const row = await findAccountPrediction(db, String(req.params.id), res.locals.portal!.owner);
    const format = String(req.params.format);
    const item = DOWNLOADS.find((download) => download.format === format);
    if (!item && format !== 'results')
      throw new AppError('not_found', `There is no download format ${format.slice(0, 20)}; use text, srt, lrc, json, json2 or results.`);
    const body = downloadBody(row, format);
    res.attachment(`transcript-${row.id}.${item?.extension ?? 'results.json'}`); // sets a type from the extension: replaced next
    res.type(`${MEDIA_TYPES[format] ?? 'text/plain'}; charset=utf-8`);
    res.send(body);
  });

  return router;
}

function downloadBody(row: PredictionRow, format: string): string {
  if (row.status !== 'succeeded' || row.transcript === null) {
    throw new AppError('not_found', `This transcription has no transcript yet (status ${row.status}).`);
  }
  if (format === 'results') return JSON.stringify(row.results ?? {}, null, 2);
  const rendered = renderTranscript(row.transcript as Transcript, format as (typeof DOWNLOADS)[number]['format']);
  return typeof rendered === 'string' ? rendered : JSON.stringify(rendered, null, 2);
}
