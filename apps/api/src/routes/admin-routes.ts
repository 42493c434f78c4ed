import { timingSafeEqual } from 'node:crypto';
import { Router } from 'express';
import { AppError, createApiKey, createPortalLoginLink, listApiKeys, logEvent, revokeApiKey, type ServiceContext } from '@transcribe/core';

/** True for a connection from this machine (IPv4, IPv6 or IPv4-mapped loopback). */
export function isLoopback(address: string | undefined): boolean {
  return address === '127.0.0.1' || address === '::1' || address === '::ffff:127.0.0.1';
}

/**
 * Compares a presented token with the expected one in constant time. Lengths are compared in bytes:
 * a header of as many characters but other bytes (non-ASCII) would make timingSafeEqual throw.
 */
export function tokenMatches(presented: string | undefined, expected: string): boolean {
  if (!presented) return false;
  const given = Buffer.from(presented);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Loopback-only routes for the `apikey` and `portal` CLIs while the service holds the embedded database
 * (PGlite allows one process). Guarded by the admin token written to DATA_DIR/service.json (mode 0600).
 */
export function adminRoutes(ctx: ServiceContext, adminToken: string): Router {
  const router = Router();
  router.use((req, _res, next) => {
    if (!isLoopback(req.socket.remoteAddress) || !tokenMatches(req.get('x-admin-token'), adminToken)) {
      throw new AppError('not_found', 'No such endpoint.');
    }
    next();
  });
  router.post('/api-keys', async (req, res) => {
    const label = typeof req.body?.label === 'string' ? req.body.label : 'unnamed';
    res.status(201).json(await createApiKey(ctx.database.db, label));
  });
  router.get('/api-keys', async (_req, res) => {
    res.json(await listApiKeys(ctx.database.db));
  });
  router.post('/api-keys/:id/revoke', async (req, res) => {
    const revoked = await revokeApiKey(ctx.database.db, String(req.params.id), {
      cache: ctx.apiKeyCache,
      confirmWith: ctx.database,
      log: (message) => logEvent(ctx, 'warn', 'keys', message),
    });
    res.json(revoked); // {id, revokedAt, alreadyRevokedAt}: the CLI says whether it was revoked before
  });
  router.post('/portal/login-links', async (req, res) => {
    const owner = typeof req.body?.owner === 'string' ? req.body.owner : '';
    const link = await createPortalLoginLink(ctx, owner); // `npm run portal -- login-link` (no bot needed)
    res.status(201).json({ url: link.url, expiresAt: link.expiresAt });
  });
  return router;
}
