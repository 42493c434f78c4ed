import { Router } from 'express';
import { summarizeUsage, type ServiceContext } from '@transcribe/core';

/**
 * `GET …/v1/account` (beyond the spec, docs/caching-and-billing.md): the key's user and their usage
 * in the current free-repeat window, from the usage ledger.
 */
export function accountRoutes(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/account', async (_req, res) => {
    const key = res.locals.apiKey;
    const usage = await summarizeUsage(ctx.database.db, key.id, ctx.config.cacheTtlDays);
    res.json({ type: 'user', key: { id: key.id, label: key.label, prefix: key.prefix }, usage });
  });
  return router;
}
