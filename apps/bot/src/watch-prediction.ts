import { setTimeout as sleep } from 'node:timers/promises';
import { findPrediction, isTerminalStatus, type Db, type PredictionRow } from '@transcribe/core';

export interface WatchOptions {
  /** Time between reads, ms. */
  pollMs: number;
  /** Stop watching after this long and return the last row (still `processing`), ms. */
  timeoutMs: number;
  signal: AbortSignal;
  /**
   * The prediction's place in the queue while it waits (not started): transcriptions taken before
   * it and the estimated minutes until a worker takes it, or null when not waiting. Read on each
   * poll while the row has no start time.
   */
  queuePosition?(row: PredictionRow): Promise<QueueWait | null>;
  /** Called with each row read whose status, start time, logs, queue position or estimate changed. */
  onChange(row: PredictionRow, wait: QueueWait | null): Promise<void>;
}

/** A waiting prediction's place: `ahead` transcriptions first, a worker expected in about `minutes` (null: no estimate). */
export interface QueueWait {
  ahead: number;
  minutes: number | null;
}

/**
 * Re-reads a prediction of key `apiKeyId` until it is terminal (spec 3) or `timeoutMs` passes,
 * reporting changes for the chat's status message. Returns the last row read.
 * @throws AppError `not_found`; the signal's reason when `signal` aborts.
 */
export async function watchPrediction(db: Db, id: string, apiKeyId: string, options: WatchOptions): Promise<PredictionRow> {
  const deadline = Date.now() + options.timeoutMs;
  let seen = '';
  for (;;) {
    options.signal.throwIfAborted();
    const row = await findPrediction(db, id, apiKeyId);
    const waiting = row.startedAt === null && !isTerminalStatus(row.status);
    const wait = waiting && options.queuePosition ? await options.queuePosition(row) : null;
    const fingerprint = `${row.status}|${row.startedAt?.getTime() ?? ''}|${row.logs}|${wait?.ahead ?? ''}|${wait?.minutes ?? ''}`;
    if (fingerprint !== seen) {
      seen = fingerprint;
      await options.onChange(row, wait);
    }
    if (isTerminalStatus(row.status) || Date.now() >= deadline) return row;
    await sleep(Math.min(options.pollMs, Math.max(0, deadline - Date.now())), undefined, { signal: options.signal });
  }
}
