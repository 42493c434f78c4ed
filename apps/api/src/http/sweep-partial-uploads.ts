import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { logEvent, type ServiceContext } from '@transcribe/core';
import type { BodyRate } from './limit-body-rate.ts';
import { PARTIAL_UPLOAD_SUFFIX } from './receive-json-body.ts';

/**
 * Least age in ms after which an untouched partial `data:` upload is taken as left behind (see
 * partialUploadStaleMs).
 */
export const PARTIAL_UPLOAD_STALE_MS = 15 * 60 * 1000;

/** The most JSON a body holds besides its `data:` URI, bytes (receive-json-body.ts). */
const JSON_REST_BYTES = 1024 * 1024;

/**
 * Age in ms after which an untouched partial `data:` upload is taken as left behind, under the
 * body rule of limit-body-rate.ts: a live upload writes to its file as the URI's bytes arrive, and
 * a live body may go quiet for at most about two windows, then send the rest of its JSON (at most
 * 1 MiB) at the minimum rate; twice that, and never less than {@link PARTIAL_UPLOAD_STALE_MS}
 * (15 minutes; 6 minutes would do at the defaults), means its request is gone.
 */
export function partialUploadStaleMs(rate: BodyRate): number {
  const longestQuiet = 2 * rate.windowMs + (JSON_REST_BYTES / rate.minBytesPerSecond) * 1000;
  return Math.max(PARTIAL_UPLOAD_STALE_MS, Math.ceil(2 * longestQuiet));
}
/** How often the running service looks for left-behind partial uploads, in ms. */
export const PARTIAL_UPLOAD_SWEEP_MS = 5 * 60 * 1000;

/**
 * Removes the files of `data:` URIs whose request body never finished (`DATA_DIR/uploads/data-uri-*.partial`,
 * written by receiveJsonBody): the process stopped or crashed while a body arrived. Such a file never
 * belongs to a prediction (it is renamed to the prediction's id when one is made).
 * @param options.olderThanMs only files not written for this long, in ms (0: all, for a sole owner of DATA_DIR).
 * @returns how many files were removed. Never throws: a missing folder or a vanished file is skipped.
 */
export async function sweepPartialUploads(dataDir: string, options: { olderThanMs: number; now?: number }): Promise<number> {
  const dir = join(dataDir, 'uploads');
  const names = await readdir(dir).catch(() => [] as string[]);
  const now = options.now ?? Date.now();
  let removed = 0;
  for (const name of names) {
    if (!name.startsWith('data-uri-') || !name.endsWith(PARTIAL_UPLOAD_SUFFIX)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (!info || now - info.mtimeMs < options.olderThanMs) continue;
    await rm(path, { force: true }).catch(() => undefined);
    removed += 1;
  }
  return removed;
}

/**
 * At start-up, removes the partial `data:` uploads a stopped run left behind (all of them when this
 * process is the sole owner of DATA_DIR, the embedded database; else those untouched for
 * partialUploadStaleMs(`options.bodyRate`), as other API processes may share the folder), then
 * repeats every {@link PARTIAL_UPLOAD_SWEEP_MS} until `ctx.stopping` aborts, instead of leaving them
 * to the cache lifetime sweep (CACHE_TTL_DAYS).
 * @param options.bodyRate the body rule of the API processes (REQUEST_BODY_TIMEOUT_MS, UPLOAD_MIN_BYTES_PER_SECOND).
 */
export async function startPartialUploadSweeper(ctx: ServiceContext, options: { soleOwner: boolean; bodyRate: BodyRate }): Promise<void> {
  const staleMs = partialUploadStaleMs(options.bodyRate);
  const removed = await sweepPartialUploads(ctx.config.dataDir, { olderThanMs: options.soleOwner ? 0 : staleMs });
  if (removed > 0) logEvent(ctx, 'info', 'uploads', `removed ${removed} partial data: upload(s) left by an earlier run`);
  const timer = setInterval(() => {
    void sweepPartialUploads(ctx.config.dataDir, { olderThanMs: staleMs });
  }, PARTIAL_UPLOAD_SWEEP_MS);
  timer.unref();
  ctx.stopping?.addEventListener('abort', () => clearInterval(timer), { once: true });
}
