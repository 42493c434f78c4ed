import express, { Router } from 'express';
import {
  checkSpeakerName,
  findAccountPrediction,
  rememberPredictionVoice,
  renamePredictionSpeaker,
  type ServiceContext,
} from '@transcribe/core';
import { abortOnClose } from './abort-on-close.ts';
import { requireCsrf, requireSession } from './portal-guards.ts';

const form = express.urlencoded({ extended: false, limit: '16kb' });

/**
 * Renaming a speaker of a transcript in the portal (docs/portal.md, "Speakers and voices"): a form POST
 * (`label`, `name`, optional `remember`, the session's CSRF token) to `/predictions/{id}/speakers`. The
 * name is checked (checkSpeakerName); with `remember`, the speaker's voice is enrolled first in the
 * person's registry under that name (rememberPredictionVoice: the use-case of `POST /v1/voices`, so
 * its refusals hold: account full, name taken, no speech, too short, two voices, recording not kept)
 * and a refusal leaves the speaker as it was. Then the name is stored for this prediction
 * (renamePredictionSpeaker) and the browser goes back to the transcript (303), which says what was done.
 */
export function speakerRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.post('/predictions/:id/speakers', requireSession, form, requireCsrf, async (req, res) => {
    const owner = res.locals.portal!.owner;
    const row = await findAccountPrediction(ctx.database.db, String(req.params.id), owner);
    const body = req.body as Record<string, unknown>;
    const label = typeof body.label === 'string' ? body.label : '';
    const name = checkSpeakerName(row, label, body.name);
    const remember = body.remember !== undefined && body.remember !== '';
    if (remember) await rememberPredictionVoice(ctx, { account: owner, row, label, name, signal: abortOnClose(res) });
    await renamePredictionSpeaker(ctx.database.db, row, label, name);
    res.redirect(303, `/portal/predictions/${row.id}?${remember ? 'remembered' : 'renamed'}=${encodeURIComponent(label)}#speakers`);
  });

  return router;
}
