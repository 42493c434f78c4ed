import express, { Router, type Express } from 'express';
import { createApiKeyCache, type ApiKeyCache, type ServiceContext } from '@transcribe/core';
import { accountRoutes } from '../routes/account-routes.ts';
import { languageRoutes } from '../routes/language-routes.ts';
import { signedTextRoutes } from '../routes/signed-text-routes.ts';
import { adminRoutes } from '../routes/admin-routes.ts';
import { fileRoutes } from '../routes/file-routes.ts';
import { legacyRoutes } from '../routes/legacy-routes.ts';
import { openAiRoutes } from '../openai/openai-routes.ts';
import { portalRoutes } from '../portal/portal-routes.ts';
import { predictionRoutes } from '../routes/prediction-routes.ts';
import { webhookRoutes } from '../routes/webhook-routes.ts';
import { authenticate } from './authenticate.ts';
import type { Registry } from 'prom-client';
import type { Readiness } from './check-readiness.ts';
import { logRequests } from '../logging/log-requests.ts';
import { createPredictionBodyCache, type PredictionBodyCache } from './prediction-body-cache.ts';
import { rateLimit } from './rate-limit.ts';
import { lingerUnreadBody } from './linger-unread-body.ts';
import { handleError, sendProblem } from './map-error.ts';
import { receiveJsonBody } from './receive-json-body.ts';
import { refuseNulCharacters } from './refuse-nul-characters.ts';
import { checkMetricsToken } from '../metrics/check-metrics-token.ts';

export interface AppOptions {
  /** Secret for the loopback-only admin routes used by the `apikey` CLI; absent disables them. */
  adminToken?: string;
  /** Routes of the Telegram bot's webhook mode (mounted before the 404 handler). */
  botRouter?: Router;
  /** KEY_CACHE_TTL_MS for a key cache of this app's own, used only when `ctx.apiKeyCache` is absent (0 = off). */
  keyCacheTtlMs?: number;
  /** PREDICTION_CACHE_BYTES: memory for the answers of finished predictions (0 = off). */
  predictionCacheBytes?: number;
  /**
   * The cache of prediction answers, kept exact for unfinished ones by watch-prediction-changes.ts
   * (start-service.ts); absent: one of `predictionCacheBytes` that holds finished answers only.
   */
  predictionBodies?: PredictionBodyCache;
  /** What `GET /ready` reports (check-readiness.ts); without it `/ready` answers like `/health`. */
  readiness?: () => Promise<Readiness>;
  /** The Prometheus registry served at `GET /metrics` (metrics/create-service-metrics.ts); none: 404. */
  metrics?: Registry;
  /** METRICS_TOKEN: with it `GET /metrics` needs `Authorization: Bearer <token>` (metrics/check-metrics-token.ts). */
  metricsToken?: string;
}

/** The env defaults (apps/api/src/env.ts), used when the caller sets no cache sizes. */
export const DEFAULT_KEY_CACHE_TTL_MS = 5_000;
export const DEFAULT_PREDICTION_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Largest JSON body in bytes: a recording of `maxMediaBytes` (300 MiB) as a base64 `data:` URI, plus
 * 1 MiB for the other members. Only that URI may be large: it is decoded to disk as it arrives, and
 * the other members together are bounded by 1 MiB (receive-json-body.ts).
 */
export function jsonBodyLimitBytes(maxMediaBytes: number): number {
  return Math.ceil(maxMediaBytes / 3) * 4 + 1024 * 1024;
}

/**
 * Builds the express app: the client-compatible routes under both `/v1/replicate/v1` and
 * `/v1/replicate` (replicate-compat.md 2), the earlier interface variant under `/v1` (spec 9), key
 * authentication (spec 5) before any body is read, JSON parsing sized for `data:` URIs
 * (replicate-compat.md 10.6; uploads are streamed by the routes), and the one error mapper.
 * Authenticated keys and the answers of finished predictions are cached in memory, so most polls
 * touch no database (resources/keys/api-key-cache.ts, http/prediction-body-cache.ts).
 */
export function createApp(ctx: ServiceContext, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req, res, next) => {
    lingerUnreadBody(req, res); // an early answer (401, 413, 422) to a big upload still reaches the client
    next();
  });
  if (ctx.logger) app.use(logRequests(ctx.logger)); // one line per request, with its X-Request-Id
  app.get('/', (_req, res) => res.redirect(302, '/portal')); // a browser opening the service's address lands in the portal
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' }); // liveness: the process answers
  });
  if (options.metrics) {
    const registry = options.metrics;
    app.get('/metrics', async (req, res) => {
      const refusal = checkMetricsToken(options.metricsToken, req.get('authorization'));
      if (refusal) return void res.status(refusal.status).set(refusal.headers).send(refusal.body);
      res.type(registry.contentType).send(await registry.metrics());
    });
  }
  app.get('/ready', async (_req, res) => {
    if (!options.readiness) return void res.json({ status: 'ready' });
    const readiness = await options.readiness();
    res.status(readiness.ready ? 200 : 503).json({ status: readiness.ready ? 'ready' : 'not ready', checks: readiness.checks });
  });
  if (options.adminToken) app.use('/internal', express.json(), adminRoutes(ctx, options.adminToken));
  const keys = ctx.apiKeyCache ?? createApiKeyCache({ ttlMs: options.keyCacheTtlMs ?? DEFAULT_KEY_CACHE_TTL_MS });
  const bodies = options.predictionBodies ?? createPredictionBodyCache(options.predictionCacheBytes ?? DEFAULT_PREDICTION_CACHE_BYTES);
  const api = apiRouter(ctx, keys, 'audio', predictionRoutes(ctx, bodies), fileRoutes(ctx), accountRoutes(ctx), languageRoutes(ctx));
  api.use(webhookRoutes(ctx));
  const signedText = signedTextRoutes(ctx); // the signed txt_file_url works without a key (spec 9)
  app.use('/v1/replicate/v1', signedText);
  app.use('/v1/replicate', signedText);
  app.use('/v1/replicate/v1', api);
  app.use('/v1/replicate', api);
  app.use('/v1', openAiRoutes(ctx, keys)); // OpenAI's /v1/audio/* and /v1/models (docs/openai-api.md)
  app.use('/v1', apiRouter(ctx, keys, 'url', legacyRoutes(ctx))); // the earlier variant sends the recording in input.url
  app.use(portalRoutes(ctx)); // the account portal under /portal and /openapi.json
  if (options.botRouter) app.use(options.botRouter);
  app.use((_req, res) => {
    sendProblem(res, 404, 'No such endpoint. The API lives under /v1/replicate/v1 (see docs/api.md).');
  });
  app.use(handleError);
  return app;
}

/**
 * Authentication, then JSON parsing streamed with bounded memory (receiveJsonBody: a `data:` URI in
 * `input.<dataUriParam>` goes to disk as it arrives; JS clients send `Content-Type: application/json`
 * on GETs and body-less POSTs: an empty body is fine), then the routes.
 */
function apiRouter(ctx: ServiceContext, keys: ApiKeyCache, dataUriParam: string, ...routes: Router[]): Router {
  const router = Router();
  router.use(authenticate(ctx.database.db, keys));
  router.use(rateLimit(ctx)); // per key, 429 + Retry-After before any body is read
  router.use(receiveJsonBody(ctx, { limitBytes: jsonBodyLimitBytes(ctx.config.maxMediaBytes), dataUriParam }));
  router.use(refuseNulCharacters); // PostgreSQL cannot store NUL: refuse it instead of failing with a 500
  for (const routes_ of routes) router.use(routes_);
  return router;
}
