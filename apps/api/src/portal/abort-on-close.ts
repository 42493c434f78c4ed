import type { Response } from 'express';

/** A signal aborted when the browser goes away before the answer is sent (long work, e.g. ffmpeg, then stops). */
export function abortOnClose(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableEnded) controller.abort(new Error('The client disconnected.'));
  });
  return controller.signal;
}
