import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { predictions } from '../../platform/db/schema.ts';

/** How often a running prediction re-reads its status to notice a cancel, in ms. */
export const CANCEL_CHECK_INTERVAL_MS = 1000;

export interface CancellationWatch {
  /** Aborts (reason: an Error "canceled") once the prediction's status is `canceled`. */
  signal: AbortSignal;
  /** True once the prediction was found canceled. */
  readonly canceled: boolean;
  /** Reads the status now; aborts `signal` and returns true when canceled. */
  check(): Promise<boolean>;
  stop(): void;
}

/**
 * Watches one running prediction for `POST …/cancel` (which may come to another process): re-reads
 * its status every `intervalMs` and aborts `signal` when it is `canceled`, so the download, ffmpeg,
 * VAD and recognition stop early. Call `stop()` when the run ends.
 */
export function watchCancellation(db: Db, id: string, intervalMs = CANCEL_CHECK_INTERVAL_MS): CancellationWatch {
  const controller = new AbortController();
  let canceled = false;
  const check = async (): Promise<boolean> => {
    if (canceled) return true;
    const [row] = await db.select({ status: predictions.status }).from(predictions).where(eq(predictions.id, id)).limit(1);
    if (row?.status === 'canceled') {
      canceled = true;
      controller.abort(new Error(`prediction ${id} was canceled`));
    }
    return canceled;
  };
  const timer = setInterval(() => {
    check().catch(() => undefined); // a failed read is retried on the next tick
  }, intervalMs);
  timer.unref();
  return {
    signal: controller.signal,
    get canceled() {
      return canceled;
    },
    check,
    stop: () => clearInterval(timer),
  };
}
