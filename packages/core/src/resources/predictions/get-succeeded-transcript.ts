import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { PredictionRow } from '../../platform/db/schema.ts';

/**
 * The transcript model of a succeeded prediction's row (stored with its end by finish-prediction.ts;
 * a row that has not succeeded has none).
 * @throws Error naming the prediction when the row has no transcript: the caller read a prediction
 *   that has not succeeded (a bug, never a user's error).
 */
export function getSucceededTranscript(row: Pick<PredictionRow, 'id' | 'transcript'>): Transcript {
  if (!row.transcript) throw new Error(`prediction ${row.id} has no transcript: it has not succeeded`);
  return row.transcript;
}
