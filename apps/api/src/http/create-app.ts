import express, { Router, type Express, type Request, type Response } from 'express';
import { createApiKeyCache, type ApiKeyCache, type ServiceContext } from '@transcribe/core';
import { accountRoutes } from '../routes/account-routes.ts';
import { languageRoutes } from '../routes/language-routes.ts';
import { signedTextRoutes } from '../routes/signed-text-routes.ts';
import { adminRoutes } from '../routes/admin-routes.ts';
import { voiceRoutes } from '../routes/voice-routes.ts';
import { fileRoutes } from '../routes/file-routes.ts';
import { legacyRoutes } from '../routes/legacy-routes.ts';
import { adminQueueRoute, queueRoutes } from '../routes/queue-routes.ts';
import { openAiRoutes } from '../openai/openai-routes.ts';
import { portalRoutes } from '../portal/portal-routes.ts';
import { predictionRoutes } from '../routes/prediction-routes.ts';
import { webhookRoutes } from '../routes/webhook-routes.ts';
import { authenticate } from './authenticate.ts';
import { createAuthFailureLimiter, DEFAULT_AUTH_FAILURES_PER_MINUTE, type AuthFailureLimiter } from './limit-auth-failures.ts';
import type { Registry } from 'prom-client';
import type { Readiness } from './check-readiness.ts';
import { logRequests } from '../logging/log-requests.ts';
import { createPredictionBodyCache, type PredictionBodyCache } from './prediction-body-cache.ts';
import { rateLimit } from './rate-limit.ts';
import { lingerUnreadBody } from './linger-unread-body.ts';
import { DEFAULT_BODY_RATE, limitBodyRate, type BodyRate } from './limit-body-rate.ts';
import { sendOpenAiError } from '../openai/send-openai-error.ts';
import { sendErrorPage } from '../portal/pages/error-page.ts';
import { wantsJson } from '../portal/portal-guards.ts';
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
  /** PREDICTION_CACHE_BYTES: memory for the answers of finished predictions when `predictionBodies` is absent (0 = off). */
  predictionCacheBytes?: number;
  /**
   * The cache of prediction answers, whose unfinished ones watch-prediction-changes.ts drops on every
   * write (start-service.ts); absent: one of `predictionCacheBytes` that holds finished answers only.
   */
  predictionBodies?: PredictionBodyCache;
  /** What `GET /ready` reports (check-readiness.ts); without it `/ready` answers like `/health`. */
  readiness?: () => Promise<Readiness>;
  /** The Prometheus registry served at `GET /metrics` (metrics/create-service-metrics.ts); none: 404. */
  metrics?: Registry;
  /** METRICS_TOKEN: with it `GET /metrics` needs `Authorization: Bearer <token>` (metrics/check-metrics-token.ts). */
  metricsToken?: string;
  /**
   * AUTH_FAILURES_PER_MINUTE: failed key and signed-link checks one client address may have in a
   * minute before its checks are answered 429 (http/limit-auth-failures.ts); 0 = no limit. Default 30.
   */
  authFailuresPerMinute?: number;
  /**
   * TRUST_PROXY: express's `trust proxy` setting, which decides the client address (`req.ip`) the
   * failure limit counts under: false (default) = the connection's peer; a number of proxies in
   * front, or the proxies' addresses / subnets / `loopback` = the address those proxies name in
   * X-Forwarded-For (and `req.secure` from X-Forwarded-Proto).
   */
  trustProxy?: TrustProxy;
  /**
   * REQUEST_BODY_TIMEOUT_MS and UPLOAD_MIN_BYTES_PER_SECOND: how fast every request body must arrive
   * (http/limit-body-rate.ts); default: free for 60 s, then 16 KiB/s averaged over each last 60 s.
   */
  bodyRate?: BodyRate;
}

/** The values TRUST_PROXY may give express's `trust proxy` (env.ts parses them). */
export type TrustProxy = false | number | string[];

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
 * touch no database (resources/keys/api-key-cache.ts, http/prediction-body-cache.ts); unknown keys
 * are remembered for the key cache's TTL, and failed key and signed-link checks are counted per
 * client address (http/limit-auth-failures.ts), so guessing costs no query per request.
 */
export function createApp(ctx: ServiceContext, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', options.trustProxy ?? false); // which address req.ip is: limit-auth-failures.ts counts under it
  app.use((req, res, next) => {
    lingerUnreadBody(req, res); // an early answer (401, 413, 422) to a big upload still reaches the client
    next();
  });
  app.use(limitBodyRate(options.bodyRate ?? DEFAULT_BODY_RATE, refuseSlowBody)); // a body that falls behind the minimum rate: 408
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
  // One count of failed key and signed-link checks per address for every router of the app.
  const failures = createAuthFailureLimiter(options.authFailuresPerMinute ?? DEFAULT_AUTH_FAILURES_PER_MINUTE, ctx.logger);
  const bodies = options.predictionBodies ?? createPredictionBodyCache(options.predictionCacheBytes ?? DEFAULT_PREDICTION_CACHE_BYTES, 0);
  const guard: KeyGuard = { keys, failures };
  const api = apiRouter(ctx, guard, 'audio', predictionRoutes(ctx, bodies), fileRoutes(ctx), accountRoutes(ctx), languageRoutes(ctx));
  api.use(webhookRoutes(ctx));
  const signedText = signedTextRoutes(ctx, failures); // the signed txt_file_url works without a key (spec 9)
  app.use('/v1/replicate/v1', signedText);
  app.use('/v1/replicate', signedText);
  app.use('/v1/replicate/v1', api);
  app.use('/v1/replicate', api);
  app.use('/v1', voiceRoutes(ctx, [authenticate(ctx.database.db, keys, failures), rateLimit(ctx)])); // the voice registry (docs/speakers.md)
  app.use('/v1', openAiRoutes(ctx, keys, failures)); // OpenAI's /v1/audio/* and /v1/models (docs/openai-api.md)
  if (options.adminToken || options.metricsToken) {
    // with the admin token or METRICS_TOKEN in X-Admin-Token: every key, counts only
    app.get('/v1/queue', adminQueueRoute(ctx, { adminToken: options.adminToken, metricsToken: options.metricsToken }));
  }
  app.use('/v1', apiRouter(ctx, guard, 'url', legacyRoutes(ctx), queueRoutes(ctx))); // the earlier variant sends the recording in input.url; GET /v1/queue
  app.use(portalRoutes(ctx)); // the account portal under /portal and /openapi.json
  if (options.botRouter) app.use(options.botRouter);
  app.use((_req, res) => {
    sendProblem(res, 404, 'No such endpoint. The API lives under /v1/replicate/v1 (see docs/api.md).');
  });
  app.use(handleError);
  return app;
}

/**
 * The 408 to a body that came too slowly (limit-body-rate.ts), in the shape of the API its path
 * belongs to: OpenAI's error object under `/v1/audio` and `/v1/models` (code `request_timeout`), a
 * portal page for a browser's portal request, else problem+json.
 */
function refuseSlowBody(req: Request, res: Response, detail: string): void {
  const path = new URL(req.originalUrl, 'http://service.invalid').pathname; // req.path is the router's by now
  if (/^\/v1\/(audio|models)(\/|$)/.test(path)) return sendOpenAiError(res, 408, detail, { code: 'request_timeout' });
  if (/^\/portal(\/|$)/.test(path) && !wantsJson(req)) return sendErrorPage(res, res.locals.portal, 408, detail);
  sendProblem(res, 408, detail);
}

/** What the key check of every router shares: the key cache and the per-address count of failed checks. */
interface KeyGuard {
  keys: ApiKeyCache;
  failures: AuthFailureLimiter;
}

/**
 * Authentication, then JSON parsing streamed with bounded memory (receiveJsonBody: a `data:` URI in
 * `input.<dataUriParam>` goes to disk as it arrives; JS clients send `Content-Type: application/json`
 * on GETs and body-less POSTs: an empty body is fine), then the routes.
 */
function apiRouter(ctx: ServiceContext, guard: KeyGuard, dataUriParam: string, ...routes: Router[]): Router {
  const router = Router();
  router.use(authenticate(ctx.database.db, guard.keys, guard.failures)); // failed keys per address: 429 before a lookup
  router.use(rateLimit(ctx)); // per key, 429 + Retry-After before any body is read
  router.use(receiveJsonBody(ctx, { limitBytes: jsonBodyLimitBytes(ctx.config.maxMediaBytes), dataUriParam }));
  router.use(refuseNulCharacters); // PostgreSQL cannot store NUL: refuse it instead of failing with a 500
  for (const routes_ of routes) router.use(routes_);
  return router;
}
