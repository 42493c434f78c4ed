import type { ServiceContext } from '../../service-context.ts';
import { logEvent } from '../../platform/logging/log-event.ts';
import { appendPredictionLog } from '../predictions/append-prediction-log.ts';
import { describeQueueWait, waitChangedALot } from './describe-queue-wait.ts';
import { placeInSnapshot } from './estimate-queue-places.ts';

/** Most waiting predictions told per round (the first in the fair order); the rest wait for later rounds. */
const MAX_TOLD_PER_ROUND = 200;

/**
 * Every `intervalMs`, tells each waiting prediction's logs its place and wait in words
 * (describeQueueWait: "Waiting: 3 recordings ahead, about 2 minutes"): once, and again when the
 * wait changed a lot (waitChangedALot). The wait last said is kept on the row (`queue_logged_wait`,
 * seconds, and `queue_estimated_start_at`, which the start compares: note-job-started.ts) and set by a conditional update before the line is appended, so of several processes
 * running this only one says it. Needs ctx.queueView; a failed round is logged and the next one
 * tries again.
 * @returns a function that stops it.
 */
export function startQueueAnnouncer(ctx: ServiceContext, intervalMs = 5_000): () => void {
  let running = false;
  const round = async () => {
    if (running || !ctx.queueView) return;
    running = true;
    try {
      const snapshot = await ctx.queueView.snapshot();
      const waiting = snapshot.waiting.slice(0, MAX_TOLD_PER_ROUND);
      if (waiting.length === 0) return;
      const { rows } = await ctx.database.executeSql(
        `SELECT id, queue_logged_wait FROM predictions
          WHERE id IN (SELECT json_array_elements_text($1::json)) AND status = 'processing' AND started_at IS NULL`,
        [JSON.stringify(waiting.map((entry) => entry.id))],
      );
      const said = new Map((rows as { id: string; queue_logged_wait: number | null }[]).map((row) => [row.id, row.queue_logged_wait]));
      const now = Date.now();
      for (const entry of waiting) {
        if (!said.has(entry.id)) continue;
        const place = placeInSnapshot(snapshot, { ...entry, status: 'processing' })!;
        const seconds = Math.max(0, Math.round((Date.parse(place.estimated_start_at) - now) / 1000));
        const before = said.get(entry.id) ?? null;
        if (before !== null && !waitChangedALot(before, seconds)) continue;
        const { rows: claimed } = await ctx.database.executeSql(
          `UPDATE predictions SET queue_logged_wait = $2, queue_estimated_start_at = $4
            WHERE id = $1 AND status = 'processing' AND started_at IS NULL AND queue_logged_wait IS NOT DISTINCT FROM $3
            RETURNING id`,
          [entry.id, seconds, before, place.estimated_start_at],
        );
        if (claimed.length > 0) await appendPredictionLog(ctx, entry.id, describeQueueWait(place, now));
      }
    } catch (error) {
      logEvent(ctx, 'warn', 'queue', `could not tell the waiting predictions their place: ${(error as Error).message}`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), intervalMs);
  timer.unref();
  void round();
  return () => clearInterval(timer);
}
