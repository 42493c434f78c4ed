import express, { Router } from 'express';
import {
  AppError,
  listOwnerApiKeys,
  logEvent,
  MAX_KEY_REISSUE_GRACE_SECONDS,
  reissueUserApiKey,
  serviceRootUrl,
  type ServiceContext,
} from '@transcribe/core';
import { apiKeyPage, newKeyPage } from './pages/api-key-page.ts';
import { sendPage } from './pages/layout.ts';
import { requireCsrf, requireSession } from './portal-guards.ts';
import { readerOf } from './portal-locale.ts';
import { listAccountVoices } from './voice-page-routes.ts';

/** Label of keys issued in the portal, and of the key its own transcriptions are recorded under. */
export const PORTAL_KEY_LABEL = 'portal';

const form = express.urlencoded({ extended: false, limit: '16kb' });

/**
 * Settings → API (spec 5.2): the person's keys (prefix, creation date) and "Get key", which issues
 * a key, or reissues it with the same use-case as the bot (resources/keys/reissue-user-api-key.ts): the old
 * keys stop right away or after 5 minutes, as chosen (spec 5.3: within 5 minutes). The new key is
 * shown once, never stored (Cache-Control: no-store on every portal page). The page also lists the
 * account's voices with Delete (voiceprints are biometric data: listed on the account page, docs/speakers.md).
 */
export function keyRoutes(ctx: ServiceContext): Router {
  const router = Router();
  const { db } = ctx.database;

  router.get('/api', requireSession, async (req, res) => {
    const session = res.locals.portal!;
    const reader = readerOf(res.locals);
    const keys = await listOwnerApiKeys(db, session.owner);
    const voices = await listAccountVoices(ctx, session.owner);
    const body = apiKeyPage(session, keys, reader, { voices, deleted: req.query.voice_deleted === '1' });
    sendPage(res, { title: reader.t('portal-key-title'), session, current: '/portal/api', body });
  });

  router.post('/api/key', requireSession, form, requireCsrf, async (req, res) => {
    const session = res.locals.portal!;
    const key = await reissueUserApiKey(db, {
      owner: session.owner,
      label: PORTAL_KEY_LABEL,
      graceSeconds: graceOf((req.body as Record<string, unknown>).old_key),
      cache: ctx.apiKeyCache,
      confirmWith: ctx.database,
      log: (message) => logEvent(ctx, 'warn', 'keys', message),
    });
    const reader = readerOf(res.locals);
    const body = newKeyPage(key, serviceRootUrl(ctx), reader);
    sendPage(res, { title: reader.t('portal-key-new-title'), session, current: '/portal/api', body });
  });

  return router;
}

/** `now` (or absent: there was no key) → 0 s; `later` → 300 s (spec 5.3). */
function graceOf(choice: unknown): number {
  if (choice === undefined || choice === 'now') return 0;
  if (choice === 'later') return MAX_KEY_REISSUE_GRACE_SECONDS;
  throw new AppError('invalid_input', 'Choose when your current key should stop working: right away or in 5 minutes.', {
    param: 'old_key',
  });
}
