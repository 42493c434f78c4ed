import { Router } from 'express';
import { getWebhookSecret, type ServiceContext } from '@transcribe/core';

/**
 * `GET …/v1/webhooks/default/secret` (replicate-compat.md 3 and 7; docs/webhooks.md): the signing
 * secret of the key's paying user as `{"key": "whsec_<base64>"}`, made on first request. Keys of
 * one owner share it, so it survives a key reissue.
 */
export function webhookRoutes(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/webhooks/default/secret', async (_req, res) => {
    res.json({ key: await getWebhookSecret(ctx.database.db, res.locals.apiKey.id) });
  });
  return router;
}
