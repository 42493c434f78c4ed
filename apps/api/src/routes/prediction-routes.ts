import { Router, type Request, type Response } from 'express';
import {
  AppError,
  createPrediction,
  findPrediction,
  isTerminalStatus,
  toPublicPrediction,
  waitForPrediction,
  type PredictionRow,
  type ServiceContext,
} from '@transcribe/core';
import { parsePreferWait } from '../http/parse-prefer-wait.ts';
import { renderPredictionOutput } from '../http/render-prediction-output.ts';

/**
 * Routes of the client-compatible API (spec 4.1–4.3), mounted under `/v1/replicate/v1` and
 * `/v1/replicate` (replicate-compat.md 2: JS users who set the documented base as-is).
 */
export function predictionRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.post('/models/service/transcribe/predictions', async (req, res) => {
    await createAndRespond(ctx, req, res);
  });

  router.post('/predictions', async (req, res) => {
    const version = (req.body as Record<string, unknown> | undefined)?.version;
    if (version !== 'service/transcribe') {
      throw new AppError('invalid_input', 'version must be "service/transcribe", the only model of this service.', { param: 'version' });
    }
    await createAndRespond(ctx, req, res);
  });

  router.get('/predictions/:id', async (req, res) => {
    const row = await findPrediction(ctx.database.db, String(req.params.id), res.locals.apiKey.id);
    respondWithPrediction(ctx, req, res, 200, row);
  });

  return router;
}

async function createAndRespond(ctx: ServiceContext, req: Request, res: Response): Promise<void> {
  const body = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : {};
  const transformers = req.get('x-service-output-transformers') ?? null;
  renderPredictionOutput(null, transformers); // validates the header before anything is created (spec 4.4)
  const row = await createPrediction(ctx, {
    apiKeyId: res.locals.apiKey.id,
    namespace: 'api',
    rawInput: (body as Record<string, unknown>).input,
    outputTransformers: transformers,
  });
  const waitMs = parsePreferWait(req.get('prefer'));
  if (waitMs === null) {
    respondWithPrediction(ctx, req, res, 201, row);
    return;
  }
  const latest = await waitForPrediction(ctx.database.db, row.id, row.apiKeyId, waitMs);
  // Sync mode: an unfinished prediction is shown as `starting` so 1.x clients poll (replicate-compat.md 5).
  respondWithPrediction(ctx, req, res, 201, latest, isTerminalStatus(latest.status) ? undefined : 'starting');
}

function respondWithPrediction(
  ctx: ServiceContext,
  req: Request,
  res: Response,
  status: number,
  row: PredictionRow,
  shownStatus?: 'starting',
): void {
  const header = req.get('x-service-output-transformers') ?? row.outputTransformers;
  // The header is validated whatever the status, so a malformed one gives 422 on every GET (spec 4.4).
  const output = renderPredictionOutput(row.status === 'succeeded' ? row : null, header);
  const body = toPublicPrediction(row, { apiBaseUrl: ctx.config.apiBaseUrl, output, status: shownStatus });
  res.status(status).json(body);
}
