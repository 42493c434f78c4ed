import type { Request, RequestHandler, Response } from 'express';

/**
 * How fast a request body must arrive (REQUEST_BODY_TIMEOUT_MS, UPLOAD_MIN_BYTES_PER_SECOND): the
 * first `windowMs` of a body are free; from then on, the bytes of every last `windowMs` must average
 * at least `minBytesPerSecond`, until the body ends. A client that keeps up the minimum rate may take
 * as long as its upload needs (a 300 MiB recording at 16 KiB/s: 5 h 20 min), one that stalls for
 * about a window, or trickles below the rate, is cut within a window, whatever size it announced.
 * Measured over a sliding window rather than since the start, so an early burst buys no hours of
 * trickling later: a live body moves at least `minBytesPerSecond · windowMs` bytes every window.
 */
export interface BodyRate {
  /** The free start of a body, and the span the rate is averaged over, ms (REQUEST_BODY_TIMEOUT_MS; default 60 s). */
  windowMs: number;
  /** The minimum average rate, bytes a second (UPLOAD_MIN_BYTES_PER_SECOND; default 16 KiB/s). */
  minBytesPerSecond: number;
}

/**
 * The defaults (env.ts): 60 s, and 16 KiB/s = 128 kbit/s, the uplink of a weak mobile connection. A
 * recording sent at 200 KB/s (70 MB in 6 minutes, which Node's fixed 300 s `requestTimeout` used to
 * cut) is then far inside the bound, whatever its size; a slower link should send a link to the
 * recording rather than upload it. A connection held open costs its holder at least this much
 * bandwidth after the first minute, instead of a byte now and then.
 */
export const DEFAULT_BODY_RATE: BodyRate = { windowMs: 60_000, minBytesPerSecond: 16 * 1024 };

/**
 * Whether a body that delivered `bytes` over its last `spanMs` (at least one window) fell behind
 * `rate`: fewer than `minBytesPerSecond · spanMs / 1000` bytes.
 */
export function fellBehind(bytes: number, spanMs: number, rate: BodyRate): boolean {
  return bytes < (rate.minBytesPerSecond * spanMs) / 1000;
}

/**
 * The longest a body of at most `maxBodyBytes` may take under `rate` without falling behind, ms:
 * the free window, the bytes at the minimum rate, and one more window for the checks' granularity
 * (the bound for the server's own backstop, create-http-server.ts).
 */
export function longestBodyMs(maxBodyBytes: number, rate: BodyRate): number {
  return Math.ceil(2 * rate.windowMs + (maxBodyBytes / rate.minBytesPerSecond) * 1000);
}

/** Whether the request has a body (RFC 9112 6.3: a Transfer-Encoding, or a Content-Length above 0). */
function declaresBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length'] ?? 0);
  return !(length === 0 || Number.isNaN(length));
}

/** A byte count as people read it: `900 bytes`, `12.5 KiB`, `3.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${Number((bytes / 1024 / 1024).toFixed(1))} MiB`;
}

/** The words of the 408 answer to a body that delivered `bytes` over its last `spanMs`, behind `rate`. */
export function slowBodyDetail(bytes: number, spanMs: number, rate: BodyRate): string {
  const perSecond = `${formatBytes(rate.minBytesPerSecond)}/s`;
  return (
    `The request body came too slowly: ${formatBytes(bytes)} in the last ${Math.round(spanMs / 1000)} s, ` +
    `below the ${perSecond} this service needs after the first ${rate.windowMs / 1000} s, so nothing was kept. ` +
    'Send it again over a faster connection, or give a link to the recording instead of uploading it.'
  );
}

/**
 * Middleware, first in the app: holds every request body to `rate` (see {@link BodyRate}). Progress
 * is the bytes read from the connection since the request's headers (`socket.bytesRead`), sampled
 * by one timer per request with a body, four times a window; it stops with the body or the answer.
 * A body that falls behind is answered by `refuse(req, res, detail)` (408 in the shape of the API the
 * path belongs to: create-app.ts) with `Connection: close`, and the request is destroyed (with its
 * connection) once that answer is written, so the route still reading the body sees it end early
 * and removes what it stored, as for a client that went away (nothing is created). When an answer
 * was already under way, the request is just destroyed.
 * Why not Node's `requestTimeout`: it is one fixed time for every request whatever its size (300 s
 * cut any upload slower than about 1 MiB/s) and answers a bare 408; start-service.ts keeps it only
 * as a backstop above the longest body this rule lets through (http/create-http-server.ts).
 */
export function limitBodyRate(rate: BodyRate, refuse: (req: Request, res: Response, detail: string) => void): RequestHandler {
  const tickMs = Math.max(50, rate.windowMs / 4);
  return (req, res, next) => {
    if (!declaresBody(req) || req.complete) return next();
    const socket = req.socket;
    const started = performance.now();
    const readAtStart = socket.bytesRead;
    const samples = [{ at: 0, bytes: 0 }]; // (ms since start, bytes received): the last window's
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      if (req.complete || res.writableEnded || socket.destroyed) return;
      const now = performance.now() - started;
      const bytes = Math.max(0, socket.bytesRead - readAtStart);
      if (now >= rate.windowMs) {
        while (samples.length > 1 && samples[1]!.at <= now - rate.windowMs) samples.shift(); // samples[0]: a window ago or just before
        const base = samples[0]!;
        if (fellBehind(bytes - base.bytes, now - base.at, rate)) return cut(bytes - base.bytes, now - base.at);
      }
      samples.push({ at: now, bytes });
      timer = setTimeout(check, tickMs);
      timer.unref();
    };
    const cut = (bytes: number, spanMs: number) => {
      // The request itself is destroyed with an error, as Node destroys one whose client went away
      // (readers that listen for it fail at once; without a listener nothing is thrown): once the
      // answer is out, Node no longer ends a request whose connection closes, and a route still
      // reading it would wait forever.
      const abort = () => req.destroy(new Error('aborted: the request body came too slowly'));
      if (res.headersSent) return abort();
      res.once('finish', abort);
      res.set('Connection', 'close');
      refuse(req, res, slowBodyDetail(bytes, spanMs, rate));
    };
    timer = setTimeout(check, tickMs);
    timer.unref();
    res.once('close', () => clearTimeout(timer));
    next();
  };
}
