import { Router, type RequestHandler } from 'express';
import { AppError, type ServiceContext } from '@transcribe/core';
import { isLoopback, tokenMatches } from './admin-routes.ts';

/**
 * `GET /v1/queue` with an API key: the caller's unfinished predictions, running first, then waiting
 * in the fair order, each with its `queue` member (position, audio ahead, estimated start and end:
 * core createQueueView) and its links, plus the counts. Only the caller's own predictions are listed;
 * the positions count every key's jobs (docs/api.md "Queue").
 */
export function queueRoutes(ctx: ServiceContext): Router {
  const router = Router();
  router.get('/queue', async (_req, res) => {
    if (!ctx.queueView) throw new AppError('not_found', 'No such endpoint.');
    const items = await ctx.queueView.listForKey(res.locals.apiKey.id);
    const base = `${ctx.config.apiBaseUrl}/predictions`;
    res.json({
      waiting: items.filter((item) => item.status === 'waiting').length,
      running: items.filter((item) => item.status === 'running').length,
      predictions: items.map((item) => ({ ...item, urls: { get: `${base}/${item.id}`, cancel: `${base}/${item.id}/cancel` } })),
    });
  });
  return router;
}

/** Who may read the queue of every key: the embedded service's admin token, and the operator's token. */
export interface QueueAdminTokens {
  /** The admin token of DATA_DIR/service.json (an embedded PGlite service): accepted from loopback only, as the CLIs' admin routes. */
  adminToken?: string | undefined;
  /** METRICS_TOKEN: the operator's token for `/metrics`, accepted from any address (any deployment, PostgreSQL too). */
  metricsToken?: string | undefined;
}

/**
 * `GET /v1/queue` with an operator's token in `X-Admin-Token` (QueueAdminTokens): every key's
 * unfinished predictions as counts only, largest first, with no key names, ids or links, plus the
 * totals and the slots the estimates assume; the same class of figures as `/metrics`, so the
 * metrics token opens it too. A request without the header goes on to the key-authenticated route;
 * a token that matches neither (or the admin token from another address) is a 404, as for the admin routes.
 * @example curl -H "X-Admin-Token: $METRICS_TOKEN" https://transcribe.example.com/v1/queue
 */
export function adminQueueRoute(ctx: ServiceContext, tokens: QueueAdminTokens): RequestHandler {
  return async (req, res, next) => {
    const presented = req.get('x-admin-token');
    if (presented === undefined) return next();
    const byAdmin = tokens.adminToken !== undefined && isLoopback(req.socket.remoteAddress) && tokenMatches(presented, tokens.adminToken);
    const byOperator = tokens.metricsToken !== undefined && tokenMatches(presented, tokens.metricsToken);
    if (!(byAdmin || byOperator) || !ctx.queueView) throw new AppError('not_found', 'No such endpoint.');
    const snapshot = await ctx.queueView.snapshot();
    const keys = await ctx.queueView.countsByKey();
    res.json({ waiting: snapshot.waiting.length, running: snapshot.running.length, slots: snapshot.slots, keys });
  };
}
