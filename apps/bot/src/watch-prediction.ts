import { setTimeout as sleep } from 'node:timers/promises';
import { findPrediction, isTerminalStatus, type Db, type PredictionRow } from '@transcribe/core';

export interface WatchOptions {
  /** Time between reads, ms. */
  pollMs: number;
  /** Stop watching after this long and return the last row (still `processing`), ms. */
  timeoutMs: number;
  signal: AbortSignal;
  /** Called with each row read whose status, start time or logs changed. */
  onChange(row: PredictionRow): Promise<void>;
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
    const row = await findPrediction(db, id, apiKeyId);
    const fingerprint = `${row.status}|${row.startedAt?.getTime() ?? ''}|${row.logs}`;
    if (fingerprint !== seen) {
      seen = fingerprint;
      await options.onChange(row);
    }
    if (isTerminalStatus(row.status) || Date.now() >= deadline) return row;
    await sleep(Math.min(options.pollMs, Math.max(0, deadline - Date.now())), undefined, { signal: options.signal });
  }
}
