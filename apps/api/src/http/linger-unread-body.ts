import type { Request, Response } from 'express';

/** How long an answered request may keep sending its unread body before the connection is cut, in ms. */
export const LINGER_MS = 10_000;

/**
 * For upload routes that may answer (413, 422, 401 …) before the body has arrived: once the answer
 * is sent, the rest of the body is read and discarded (never stored, memory stays flat) so the
 * client can finish sending and read the answer, and the connection is cut if the body has not
 * ended within `lingerMs`. Closing at once would make many clients see a reset instead of the
 * answer (the "lingering close" of HTTP servers).
 */
export function lingerUnreadBody(req: Request, res: Response, lingerMs = LINGER_MS): void {
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    req.unpipe();
    req.on('data', () => undefined);
    req.resume();
    const timer = setTimeout(() => req.socket.destroy(), lingerMs);
    timer.unref();
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
  });
}
