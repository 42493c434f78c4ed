import { createServer, type Server } from 'node:http';
import express from 'express';
import type { ServiceContext } from '@transcribe/core';
import { handleError } from './http/map-error.ts';
import { adminRoutes } from './routes/admin-routes.ts';

/**
 * The loopback admin routes (routes/admin-routes.ts, under `/internal`) alone, on 127.0.0.1 at a
 * port the system picks: for a process that owns the embedded database but serves no HTTP API
 * (`npm run bot`, the bot alone). PGlite is one process with one connection, so the `apikey` and
 * `portal` CLIs cannot open the database beside it; they read this port and `adminToken` from the
 * data folder's lock (service-lock.ts) and ask the process instead. Nothing else is served (404).
 * @returns the listening server; its address gives the port.
 */
export async function startAdminServer(ctx: ServiceContext, adminToken: string): Promise<Server> {
  const app = express();
  app.disable('x-powered-by');
  app.use('/internal', express.json(), adminRoutes(ctx, adminToken));
  app.use((_req, res) => void res.status(404).json({ detail: 'No such endpoint.' }));
  app.use(handleError);
  const server = createServer(app);
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', done);
  });
  return server;
}
