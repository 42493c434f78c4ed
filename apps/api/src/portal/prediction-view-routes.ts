import express, { Router } from 'express';
import { formatDateTime as formatSentAt, formatDuration as formatLength } from '@transcribe/bot/recordings';
import {
  AppError,
  cancelPrediction,
  findAccountPrediction,
  findPredictionRecording,
  getSucceededTranscript,
  renameTranscriptSpeakers,
  renderTranscript,
  type PredictionRow,
  type ServiceContext,
} from '@transcribe/core';
import { describePortalProgress } from './describe-portal-progress.ts';
import { queuePlaceOf } from '../http/send-prediction.ts';
import { html } from './html.ts';
import { describeAudio, describeQueuePlace } from './pages/format.ts';
import { sendPage } from './pages/layout.ts';
import { DOWNLOADS, predictionPage, type DownloadFormat, type SpeakerOptions } from './pages/prediction-page.ts';
import { requireCsrf, requireSession } from './portal-guards.ts';
import type { PortalReader } from './portal-i18n.ts';
import { readerOf } from './portal-locale.ts';

const form = express.urlencoded({ extended: false, limit: '16kb' });

/** Page title (catalog key) by status: a failed or canceled transcription is not "Transcribing". */
const TITLES: Record<string, string> = {
  succeeded: 'portal-prediction-transcript',
  failed: 'portal-prediction-failed',
  canceled: 'portal-prediction-canceled',
};

const MEDIA_TYPES: Record<string, string> = {
  json: 'application/json',
  json2: 'application/json',
  text: 'text/plain',
  srt: 'application/x-subrip',
  lrc: 'text/plain',
  results: 'application/json',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pdf: 'application/pdf',
};

/**
 * One transcription of the signed-in person (any namespace): its page, its progress as JSON for
 * portal.js (from `logs`), and downloads of the transcript in every format (spec 2.2
 * output_format), as .docx and .pdf made as the bot makes them (apps/bot render-transcript-file.ts,
 * loaded on the first such download), and of the post-processing results; Cancel (a form POST with the session's CSRF
 * token) stops a waiting or running one with the core's cancelPrediction, under the key it was made
 * with, whichever namespace (a bot recording's chat then says it was canceled). Speakers renamed in the
 * portal (speaker-routes.ts) carry their names on the page and in every download.
 */
export function predictionViewRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const { db } = ctx.database;

  router.get('/predictions/:id', requireSession, async (req, res) => {
    const reader = readerOf(res.locals);
    const row = await findAccountPrediction(db, String(req.params.id), res.locals.portal!.owner);
    const progress = describePortalProgress(row, reader.t);
    const wait = await queueWaitInWords(ctx, row, reader);
    sendPage(res, {
      title: reader.t(TITLES[row.status] ?? 'portal-prediction-transcribing'),
      session: res.locals.portal,
      body: predictionPage(row, progress, res.locals.portal!.csrfToken, wait, reader, await speakerOptions(ctx, row, req.query)),
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
    res.json(describePortalProgress(row, readerOf(res.locals).t));
  });

  router.get('/predictions/:id/queue.json', requireSession, async (req, res) => {
    const row = await findAccountPrediction(db, String(req.params.id), res.locals.portal!.owner);
    res.json({ wait: await queueWaitInWords(ctx, row, readerOf(res.locals)) });
  });

  router.get('/predictions/:id/download/:format', requireSession, async (req, res) => {
    const row = await findAccountPrediction(db, String(req.params.id), res.locals.portal!.owner);
    const format = String(req.params.format);
    const item = DOWNLOADS.find((download) => download.format === format);
    if (!item && format !== 'results')
      throw new AppError(
        'not_found',
        `There is no download format ${format.slice(0, 20)}; use text, srt, lrc, json, json2, docx, pdf or results.`,
      );
    const body = format === 'docx' || format === 'pdf' ? await documentBody(row, format, readerOf(res.locals)) : downloadBody(row, format);
    res.attachment(`transcript-${row.id}.${item?.extension ?? 'results.json'}`); // sets a type from the extension: replaced next
    res.type(typeof body === 'string' ? `${MEDIA_TYPES[format] ?? 'text/plain'}; charset=utf-8` : MEDIA_TYPES[format]!);
    res.send(body);
  });

  return router;
}

function downloadBody(row: PredictionRow, format: string): string {
  if (row.status !== 'succeeded' || row.transcript === null) {
    throw new AppError('not_found', `This transcription has no transcript yet (status ${row.status}).`);
  }
  if (format === 'results') return JSON.stringify(row.results ?? {}, null, 2);
  const rendered = renderTranscript(
    renameTranscriptSpeakers(row.transcript, row.speakerNames),
    format as Exclude<DownloadFormat, 'docx' | 'pdf'>,
  );
  return typeof rendered === 'string' ? rendered : JSON.stringify(rendered, null, 2);
}

/**
 * The transcript as a .docx or .pdf as the bot sends it: a heading (the recording, when it was
 * sent, its length, in the reader's language) over the text with time labels.
 * @throws AppError `not_found` while there is no transcript.
 */
async function documentBody(row: PredictionRow, format: 'docx' | 'pdf', reader: PortalReader): Promise<Buffer> {
  if (row.status !== 'succeeded' || row.transcript === null) {
    throw new AppError('not_found', `This transcription has no transcript yet (status ${row.status}).`);
  }
  const transcript = renameTranscriptSpeakers(getSucceededTranscript(row), row.speakerNames);
  const { renderTranscriptFile } = await import('@transcribe/bot/transcript-files'); // docx and pdfkit only when asked for
  const details = reader.t('file-heading-details', {
    date: formatSentAt(row.createdAt, reader.locale),
    duration: formatLength(transcript.source.length),
  });
  const heading = { title: describeAudio(row.params.audio, reader.t), details };
  return (await renderTranscriptFile(transcript, format, `transcript-${row.id}`, reader.t, heading)).content;
}

/**
 * A waiting prediction's place and wait in the reader's words ("3 recordings ahead, about 2
 * minutes": the API's `queue` member), or null when it does not wait (running, ended) or the
 * queue could not be read. Shown on its page and by `queue.json`, which portal.js polls.
 */
async function queueWaitInWords(ctx: ServiceContext, row: PredictionRow, reader: PortalReader): Promise<string | null> {
  if (row.startedAt !== null) return null;
  const place = await queuePlaceOf(ctx, row);
  return place ? describeQueuePlace(place, reader) : null;
}

/**
 * What the speaker forms of a finished transcript need: whether its recording is still stored (links
 * not probed: remembering a voice probes), and the notice after a rename (`?renamed=<label>` / `?remembered=<label>`).
 */
async function speakerOptions(ctx: ServiceContext, row: PredictionRow, query: Record<string, unknown>): Promise<SpeakerOptions> {
  const speakers = row.status === 'succeeded' ? (row.transcript?.speakers.length ?? 0) : 0;
  const recording = speakers > 0 ? (await findPredictionRecording(ctx, row, { checkLink: false })).kind : 'gone';
  // The query names the label renamed (never the name itself: a link cannot make the page say anything).
  const names = row.speakerNames ?? {};
  const renamedLabel = [query.remembered, query.renamed].find((value): value is string => typeof value === 'string');
  const name = renamedLabel !== undefined && Object.hasOwn(names, renamedLabel) ? names[renamedLabel]! : null;
  const notice = name === null ? null : { key: typeof query.remembered === 'string' ? 'portal-remembered' : 'portal-renamed', name };
  return { recording, notice };
}
