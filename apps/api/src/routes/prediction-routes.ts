import { Router, type Request, type Response } from 'express';
import { AppError, cancelPrediction, findPrediction, listPredictions, renderLegacyText, type ServiceContext } from '@transcribe/core';
import { answerPredictionRead } from '../http/answer-prediction-read.ts';
import { createAndRespond } from '../http/create-and-respond.ts';
import type { PredictionBodyCache } from '../http/prediction-body-cache.ts';
import { readCreateRequest } from '../http/read-create-request.ts';
import { renderPredictionOutput } from '../http/render-prediction-output.ts';
import { predictionBody, queuePlaceOf, sendPrediction } from '../http/send-prediction.ts';

/**
 * Routes of the client-compatible API (spec 4.1–4.3; replicate-compat.md 3 and 8), mounted under
 * `/v1/replicate/v1` and `/v1/replicate` (JS users who set the documented base as-is):
 * create (JSON, multipart, octet-stream), generic create, get, cancel, list, and the text file of
 * a `txt_file_url` output (spec 9). `bodies` holds the answers of finished predictions (answer-prediction-read.ts).
 */
export function predictionRoutes(ctx: ServiceContext, bodies: PredictionBodyCache): Router {
  const router = Router();

  router.post('/models/service/transcribe/predictions', async (req, res) => {
    await create(ctx, req, res, { uploads: true });
  });

  router.post('/predictions', async (req, res) => {
    await create(ctx, req, res, { uploads: false, versions: ['service/transcribe'] });
  });

  router.get('/predictions', async (req, res) => {
    const page = await listPredictions(ctx.database.db, res.locals.apiKey.id, req.query.cursor);
    const link = (cursor: string | null) => (cursor ? `${ctx.config.apiBaseUrl}/predictions?cursor=${cursor}` : null);
    const places = await Promise.all(page.rows.map((row) => queuePlaceOf(ctx, row)));
    const results = page.rows.map((row, i) => predictionBody(ctx, req, row, undefined, places[i]));
    res.json({ results, next: link(page.next), previous: link(page.previous) });
  });

  router.get('/predictions/:id', async (req, res) => {
    await answerPredictionRead(ctx, bodies, req, res);
  });

  router.post('/predictions/:id/cancel', async (req, res) => {
    const row = await cancelPrediction(ctx, String(req.params.id), res.locals.apiKey.id);
    await sendPrediction(ctx, req, res, 200, row);
  });

  router.get('/predictions/:id/output.txt', async (req, res) => {
    const row = await findPrediction(ctx.database.db, String(req.params.id), res.locals.apiKey.id);
    if (row.status !== 'succeeded' || row.transcript === null) {
      throw new AppError('not_found', `Prediction ${row.id} has no transcript yet (status ${row.status}); poll it until it succeeds.`);
    }
    res.type('text/plain; charset=utf-8').send(renderLegacyText(row.transcript));
  });

  router.all(['/models/:owner/:name/predictions', '/models/:owner/:name', '/models/:owner/:name/versions/:version/predictions'], (req) => {
    throw new AppError('not_found', otherModelDetail(String(req.params.owner), String(req.params.name)));
  });

  return router;
}

/**
 * The 404 detail for a model path other than `service/transcribe` (a copied Replicate example such
 * as `openai/whisper`): names what was asked for and the one model served (spec 1, 9).
 */
export function otherModelDetail(owner: string, name: string): string {
  const asked = `${owner}/${name}`.slice(0, 100);
  return asked === 'service/transcribe'
    ? 'No such endpoint for service/transcribe: create predictions with POST …/models/service/transcribe/predictions.'
    : `The model ${asked} is not served here; this service serves service/transcribe.`;
}

/**
 * Create on either endpoint: validates the output header, reads the body (readCreateRequest), checks
 * `version` when the endpoint needs one (spec 4.2), then creates and answers.
 */
async function create(
  ctx: ServiceContext,
  req: Request,
  res: Response,
  options: { uploads: boolean; versions?: readonly string[] },
): Promise<void> {
  const outputTransformers = req.get('x-service-output-transformers') ?? null;
  renderPredictionOutput(null, outputTransformers); // validates the header before anything is read or created (spec 4.4)
  const request = await readCreateRequest(ctx, req, options);
  if (options.versions && !options.versions.includes(request.body.version as string)) {
    const allowed = options.versions.map((version) => `"${version}"`).join(' or ');
    throw new AppError('invalid_input', `version must be ${allowed}, the only model of this service.`, { param: 'version' });
  }
  await createAndRespond(ctx, req, res, request, { outputTransformers });
}
