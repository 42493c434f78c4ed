import { Router, type Request, type Response } from 'express';
import { AppError, findPrediction, isAppError, parseLegacyInput, type LegacyInput, type ServiceContext } from '@transcribe/core';
import { createAndRespond } from '../http/create-and-respond.ts';
import { readCreateRequest } from '../http/read-create-request.ts';
import { sendPrediction } from '../http/send-prediction.ts';

/** `version` values of the earlier variant (spec 9 shows `transcribe`; the model id works too). */
const LEGACY_VERSIONS = ['transcribe', 'service/transcribe'];

/**
 * The earlier interface variant (spec 9), mounted under `/v1` (base address without
 * `/v1/replicate`): create by model or by version with input `{url, output_format}` and get. The
 * output is a string (text, json_verbose or txt_file_url; render-legacy-output.ts). The key may come
 * in the header `Authentication` as well (authenticate.ts).
 */
export function legacyRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.post('/models/service/transcribe/predictions', async (req, res) => {
    await createLegacy(ctx, req, res, null);
  });

  router.post('/predictions', async (req, res) => {
    await createLegacy(ctx, req, res, LEGACY_VERSIONS);
  });

  router.get('/predictions/:id', async (req, res) => {
    const row = await findPrediction(ctx.database.db, String(req.params.id), res.locals.apiKey.id);
    await sendPrediction(ctx, req, res, 200, row);
  });

  return router;
}

async function createLegacy(ctx: ServiceContext, req: Request, res: Response, versions: string[] | null): Promise<void> {
  const request = await readCreateRequest(ctx, req, { uploads: false });
  if (versions && !versions.includes(request.body.version as string)) {
    throw new AppError('invalid_input', 'version must be "transcribe" (or "service/transcribe").', { param: 'version' });
  }
  const legacy = parseWithHint(request.rawInput);
  await createAndRespond(
    ctx,
    req,
    res,
    {
      rawInput: { audio: legacy.input.audio, output_format: 'text' },
      upload: null,
      body: request.body,
      decodedAudio: request.decodedAudio ?? null,
    },
    { outputTransformers: null, legacyFormat: legacy.legacyFormat, legacyInput: request.rawInput as Record<string, unknown> },
  );
}

/** parseLegacyInput, with a pointer to the current interface when `audio` was sent instead of `url`. */
function parseWithHint(rawInput: unknown): LegacyInput {
  try {
    return parseLegacyInput(rawInput);
  } catch (error) {
    const sentAudio =
      typeof rawInput === 'object' && rawInput !== null && Object.hasOwn(rawInput, 'audio') && !Object.hasOwn(rawInput, 'url');
    if (!sentAudio || !isAppError(error, 'invalid_input')) throw error;
    throw new AppError(
      'invalid_input',
      'url is required: this is the earlier interface (base address without /v1/replicate), which takes input.url. ' +
        'input.audio belongs to the current interface under /v1/replicate (see docs/api.md).',
      { param: 'url' },
    );
  }
}
