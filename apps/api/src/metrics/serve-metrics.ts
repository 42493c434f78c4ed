import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import { checkMetricsToken } from './check-metrics-token.ts';

/**
 * Serves `GET /metrics` of `registry` (Prometheus text format) on `host:port`, and nothing else
 * (404), for a process without the HTTP API: a worker's predictions are counted and timed in its
 * own process, so Prometheus must scrape it there (METRICS_PORT). Like the API's `/metrics`: open
 * without `token`, Bearer auth with it (check-metrics-token.ts); counts and durations only, never a
 * key, a link or a transcript.
 * @param token METRICS_TOKEN, or undefined.
 * @returns the listening server (port 0: any free port; read it from `server.address()`).
 * @throws Error "port N is in use; set METRICS_PORT …" when the port is taken, or the server's error.
 */
export function serveMetrics(registry: Registry, port: number, host: string, token?: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics')
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
    const refusal = checkMetricsToken(token, req.headers.authorization);
    if (refusal) return void res.writeHead(refusal.status, refusal.headers).end(refusal.body);
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${error.message}\n`),
    );
  });
  return new Promise((done, fail) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      fail(error.code === 'EADDRINUSE' ? new Error(`port ${port} is in use; set METRICS_PORT to a free port`) : error);
    });
    server.listen(port, host, () => done(server));
  });
}
