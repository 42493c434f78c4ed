import { rm } from 'node:fs/promises';
import { Router, type Request, type Response } from 'express';
import { createPrediction, ensureOwnerApiKey, isAppError, type ServiceContext } from '@transcribe/core';
import { sendPage } from './pages/layout.ts';
import { FIELD_IDS, transcribePage } from './pages/transcribe-page.ts';
import { describePortalError, type PortalErrorText } from './describe-portal-error.ts';
import { sendProblem } from '../http/map-error.ts';
import { readerOf } from './portal-locale.ts';
import { hasCsrfToken, refuseCsrf, requireSession, wantsJson } from './portal-guards.ts';
import { PORTAL_KEY_LABEL } from './key-routes.ts';
import { readPortalUpload } from './read-portal-upload.ts';

/**
 * Transcribe: the form, and its post. The prediction is made in cache namespace
 * `portal` (spec 2.6.6) under the person's newest key. portal.js posts with XMLHttpRequest (upload
 * progress) and gets `{id, url}`; without JavaScript the post answers 303 to the prediction's page.
 */
export function transcribeRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get('/transcribe', requireSession, (_req, res) => showForm(ctx, res));

  router.post('/transcribe', requireSession, async (req, res) => {
    if (req.get('x-csrf-token') !== undefined && !hasCsrfToken(req, res)) return refuseCsrf(req, res); // before the body is read
    try {
      await createFromForm(ctx, req, res);
    } catch (error) {
      if (!isAppError(error)) throw error;
      const problem = describePortalError(error, req, readerOf(res.locals));
      if (!wantsJson(req)) return showForm(ctx, res, problem); // without JavaScript: the form again, with the reason at its field
      // For portal.js: the API's problem object, in the reader's words, naming the field and a page that helps.
      const extra = {
        ...(problem.field ? { field: problem.field, field_id: FIELD_IDS[problem.field] } : {}),
        ...(problem.help ? { help: problem.help } : {}),
        ...(problem.english ? { detail_note: readerOf(res.locals).t('portal-error-details') } : {}),
      };
      sendProblem(res, problem.status, problem.message, extra);
    }
  });

  return router;
}

async function createFromForm(ctx: ServiceContext, req: Request, res: Response): Promise<void> {
  const session = res.locals.portal!;
  const form = await readPortalUpload(ctx, req);
  if (!hasCsrfToken(req, res, form.csrf)) {
    if (form.upload) await rm(form.upload.path, { force: true });
    return refuseCsrf(req, res);
  }
  let row;
  try {
    const apiKeyId = await ensureOwnerApiKey(ctx.database.db, session.owner, PORTAL_KEY_LABEL);
    row = await createPrediction(ctx, { apiKeyId, namespace: 'portal', rawInput: form.rawInput, upload: form.upload });
  } catch (error) {
    if (form.upload) await rm(form.upload.path, { force: true });
    throw error;
  }
  const url = `/portal/predictions/${row.id}`;
  if (wantsJson(req)) return void res.status(201).json({ id: row.id, url });
  res.redirect(303, url);
}

function showForm(ctx: ServiceContext, res: Response, error?: PortalErrorText): void {
  const session = res.locals.portal!;
  const reader = readerOf(res.locals);
  const options = {
    recognitionLanguages: ctx.engine.languages,
    llmConfigured: ctx.config.llmConfigured,
    maxBytes: ctx.config.maxMediaBytes,
    ...(error ? { error } : {}),
  };
  const body = transcribePage(session, options, reader);
  sendPage(res, { title: reader.t('portal-transcribe-title'), session, current: '/portal/transcribe', body, status: error?.status ?? 200 });
}
