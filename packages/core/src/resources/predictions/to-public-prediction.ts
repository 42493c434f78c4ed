import type { PredictionRow } from '../../platform/db/schema.ts';
import type { QueuePlace } from '../queue/estimate-queue-places.ts';
import { MODEL_ID, MODEL_VERSION, TERMINAL_STATUSES, type PredictionStatus, type PublicPrediction } from './public-prediction.ts';

export interface PublicPredictionOptions {
  /** Absolute base of the client-compatible API, e.g. `https://host/v1/replicate/v1` (no trailing slash). */
  apiBaseUrl: string;
  /** The output to show; defaults to the stored default-form output. */
  output?: unknown;
  /** Status to show instead of the stored one (`starting` for an unfinished `Prefer: wait`). */
  status?: PredictionStatus;
  /** The fair queue's place of an unfinished prediction (QueueView.placeOf), shown as `queue`; null or absent: not shown. */
  queue?: QueuePlace | null;
}

/**
 * Maps a stored prediction row to the public object (spec 2.1; replicate-compat.md 4, 10.8):
 * non-null `id`/`model`/`version`, `urls` with string values only, `metrics` always an object,
 * timestamps in ISO 8601, and `error_code` beside `error` when failed. Internal columns (source,
 * params) are never copied.
 */
export function toPublicPrediction(row: PredictionRow, options: PublicPredictionOptions): PublicPrediction {
  const metrics: PublicPrediction['metrics'] = {};
  if (row.predictTime !== null) metrics.predict_time = row.predictTime;
  if (row.completedAt) metrics.total_time = (row.completedAt.getTime() - row.createdAt.getTime()) / 1000;
  if (row.audioSeconds !== null) metrics.audio_duration = row.audioSeconds;
  const url = `${options.apiBaseUrl}/predictions/${row.id}`;
  const queue = options.queue && !TERMINAL_STATUSES.has(row.status) ? { queue: options.queue } : {};
  return {
    id: row.id,
    model: MODEL_ID,
    version: MODEL_VERSION,
    status: options.status ?? (row.status as PredictionStatus),
    input: row.input as Record<string, unknown>,
    output: row.status === 'succeeded' ? (options.output !== undefined ? options.output : row.output) : null,
    error: row.error,
    error_code: row.status === 'failed' ? row.errorCode : null,
    logs: row.logs,
    metrics,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    completed_at: row.completedAt?.toISOString() ?? null,
    urls: { get: url, cancel: `${url}/cancel` },
    data_removed: false,
    ...queue,
  };
}
