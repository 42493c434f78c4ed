import express, { type Express } from 'express';
import type { ServiceContext } from '@transcribe/core';
import { accountRoutes } from '../routes/account-routes.ts';
import { adminRoutes } from '../routes/admin-routes.ts';
import { predictionRoutes } from '../routes/prediction-routes.ts';
import { authenticate } from './authenticate.ts';
import { handleError, sendProblem } from './map-error.ts';

export interface AppOptions {
  /** Secret for the loopback-only admin routes used by the `apikey` CLI; absent disables them. */
  adminToken?: string;
}

/** Largest JSON body: a 300 MiB recording as a base64 `data:` URI, plus room for the other members. */
export function jsonBodyLimitBytes(maxMediaBytes: number): number {
  return Math.ceil(maxMediaBytes / 3) * 4 + 1024 * 1024;
}

/**
 * Builds the express app: JSON parsing sized for `data:` URIs (replicate-compat.md 10.6), the
 * client-compatible routes under both `/v1/replicate/v1` and `/v1/replicate`, key authentication
 * (spec 5) and the one error mapper.
 */
export function createApp(ctx: ServiceContext, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });
  if (options.adminToken) app.use('/internal', express.json(), adminRoutes(ctx, options.adminToken));
  // JS clients send `Content-Type: application/json` on GETs and body-less POSTs: an empty body is fine.
  app.use(express.json({ limit: jsonBodyLimitBytes(ctx.config.maxMediaBytes), strict: false }));
  const api = express.Router();
  api.use(authenticate(ctx.database.db));
  api.use(predictionRoutes(ctx));
  api.use(accountRoutes(ctx));
  app.use('/v1/replicate/v1', api);
  app.use('/v1/replicate', api);
  app.use((_req, res) => {
    sendProblem(res, 404, 'No such endpoint. The API lives under /v1/replicate/v1 (see docs/api.md).');
  });
  app.use(handleError);
  return app;
}
