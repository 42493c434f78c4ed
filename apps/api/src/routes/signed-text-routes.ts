import { Router, type NextFunction, type Request, type Response } from 'express';
import { eq } from 'drizzle-orm';
import {
  AppError,
  apiKeys,
  checkLegacyTextUrl,
  isLegacyTextQueryWellFormed,
  predictions,
  renderLegacyText,
  type ServiceContext,
} from '@transcribe/core';
import { failureAddressOf, refuseOverFailureLimit, type AuthFailureLimiter } from '../http/limit-auth-failures.ts';

/** Says the same for an unknown id and a wrong signature, so ids cannot be probed. */
const NOT_VALID =
  'This text link is not valid: it was changed or cut. Fetch the prediction again with your API key for its current txt_file_url.';

/**
 * `GET …/predictions/{id}/output.txt?expires=…&signature=…` without a key: the signed
 * `txt_file_url` of the earlier interface variant (spec 9; resources/predictions/sign-legacy-text-url.ts),
 * which its clients fetch as given. Mounted before the key check under both API roots; a request
 * without `signature` goes on to the key-checked route of the same path (prediction-routes.ts).
 * Answers `text/plain; charset=utf-8` with the prediction's text, or 403 `link_not_valid` (altered,
 * unknown id, expired, or the key that made it revoked), or 404 when it has no text (not succeeded).
 * A query that is not of a signed link's form is refused without a database query. With `failures`
 * (AUTH_FAILURES_PER_MINUTE), an altered link or an unknown id counts against the client's address
 * (an expired or revoked genuine link does not), and an address over its limit gets 429 with
 * Retry-After before anything is looked up (http/limit-auth-failures.ts).
 * @example
 * curl "https://host/v1/replicate/v1/predictions/p8x2k/output.txt?expires=1796000000&signature=…"
 */
export function signedTextRoutes(ctx: ServiceContext, failures?: AuthFailureLimiter): Router {
  const router = Router();
  router.get('/predictions/:id/output.txt', async (req: Request, res: Response, next: NextFunction) => {
    if (req.query.signature === undefined) return next();
    if (failures) await refuseOverFailureLimit(failures, req, res);
    const refuseAltered = async (): Promise<never> => {
      await failures?.failed(failureAddressOf(req));
      throw new AppError('link_not_valid', NOT_VALID);
    };
    if (!isLegacyTextQueryWellFormed(req.query.expires, req.query.signature)) return refuseAltered();
    const id = String(req.params.id);
    const [found] = await ctx.database.db
      .select({ row: predictions, keyHash: apiKeys.hash, keyRevokedAt: apiKeys.revokedAt })
      .from(predictions)
      .innerJoin(apiKeys, eq(apiKeys.id, predictions.apiKeyId))
      .where(eq(predictions.id, id))
      .limit(1);
    const completedAt = found?.row.completedAt;
    if (!found || !completedAt) return refuseAltered();
    const check = checkLegacyTextUrl({ id, completedAt, keyHash: found.keyHash }, req.query.expires, req.query.signature);
    if (check === 'invalid') return refuseAltered();
    if (check === 'expired') {
      throw new AppError(
        'link_not_valid',
        `This text link expired at ${new Date(Number(req.query.expires) * 1000).toISOString()}. Send your API key with this URL (Authorization: Bearer <key>) to read the text.`,
      );
    }
    if (found.keyRevokedAt !== null && found.keyRevokedAt <= new Date()) {
      throw new AppError('link_not_valid', 'The API key that made this prediction was revoked, so its text links no longer work.');
    }
    if (found.row.status !== 'succeeded' || found.row.transcript === null) {
      throw new AppError('not_found', `Prediction ${id} has no transcript (status ${found.row.status}).`);
    }
    res.type('text/plain; charset=utf-8').send(renderLegacyText(found.row.transcript));
  });
  return router;
}
