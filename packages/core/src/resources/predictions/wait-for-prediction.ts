import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../platform/db/open-database.ts';
import type { PredictionRow } from '../../platform/db/schema.ts';
import { findPrediction } from './find-prediction.ts';
import { TERMINAL_STATUSES } from './public-prediction.ts';

/**
 * Re-reads a prediction until it reaches a terminal status or `timeoutMs` passes (the `Prefer: wait`
 * sync mode of replicate-compat.md section 5; at most 60 s). Returns the last row read.
 */
export async function waitForPrediction(db: Db, id: string, apiKeyId: string, timeoutMs: number, pollMs = 200): Promise<PredictionRow> {
  const deadline = Date.now() + timeoutMs;
  let row = await findPrediction(db, id, apiKeyId);
  while (!TERMINAL_STATUSES.has(row.status) && Date.now() < deadline) {
    await sleep(Math.min(pollMs, Math.max(0, deadline - Date.now())));
    row = await findPrediction(db, id, apiKeyId);
  }
  return row;
}
