import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import express, { Router } from 'express';
import { cutVoiceExcerpt, deleteVoice, findVoice, listVoices, voiceExcerptState, type ServiceContext } from '@transcribe/core';
import { sendPage } from './pages/layout.ts';
import { voicesPage, type ListedVoice } from './pages/voices-page.ts';
import { abortOnClose } from './abort-on-close.ts';
import { requireCsrf, requireSession } from './portal-guards.ts';
import { readerOf } from './portal-locale.ts';

const form = express.urlencoded({ extended: false, limit: '16kb' });

/**
 * The Voices page of the portal (docs/portal.md, "Speakers and voices"): the signed-in person's voices
 * (their account is the portal owner, as for `/v1/voices` with their key), each with a sample excerpt
 * cut on demand from the recording it was remembered from (`GET /voices/{id}/excerpt`, a WAV; nothing
 * kept) and Delete (a POST with the CSRF token; the row, all that is kept of the voice, is gone at once).
 * Another account's voice is 404.
 */
export function voicePageRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const { db } = ctx.database;

  router.get('/voices', requireSession, async (req, res) => {
    const session = res.locals.portal!;
    const reader = readerOf(res.locals);
    const voices = await listAccountVoices(ctx, session.owner);
    const notice = req.query.deleted === '1' ? 'portal-voices-deleted' : null;
    sendPage(res, {
      title: reader.t('portal-voices-title'),
      session,
      current: '/portal/voices',
      body: voicesPage(voices, session.csrfToken, notice, reader),
    });
  });

  router.get('/voices/:id/excerpt', requireSession, async (req, res) => {
    const owner = res.locals.portal!.owner;
    const voice = await findVoice(db, String(req.params.id), owner);
    const workDir = join(ctx.config.dataDir, 'work', `excerpt-${randomUUID()}`);
    await mkdir(workDir, { recursive: true });
    try {
      const path = await cutVoiceExcerpt(ctx, db, { voice, owner, workDir, signal: abortOnClose(res) });
      const body = await readFile(path);
      res.type('audio/wav').set('Content-Disposition', 'inline').send(body);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  });

  router.post('/voices/:id/delete', requireSession, form, requireCsrf, async (req, res) => {
    await deleteVoice(db, String(req.params.id), res.locals.portal!.owner);
    const back = (req.body as Record<string, unknown>).back === 'api' ? '/portal/api?voice_deleted=1' : '/portal/voices?deleted=1';
    res.redirect(303, back);
  });

  return router;
}

/** The owner's voices, oldest first, each with whether its excerpt can be played (voiceExcerptState, no link probed). */
export async function listAccountVoices(ctx: ServiceContext, owner: string): Promise<ListedVoice[]> {
  const rows = await listVoices(ctx.database.db, owner);
  return Promise.all(rows.map(async (voice) => ({ voice, excerpt: await voiceExcerptState(ctx, voice, owner) })));
}
