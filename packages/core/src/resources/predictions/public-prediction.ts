/**
 * The prediction object as the HTTP API returns it: spec 2.1 fields plus the fields the Replicate
 * clients require (replicate-compat.md sections 4 and 10.8). Never internal file handles or paths.
 */
import type { QueuePlace } from '../queue/estimate-queue-places.ts';

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['succeeded', 'failed', 'canceled']);

/** The model id of spec 1 and 9. */
export const MODEL_ID = 'service/transcribe';
/** The version label: the model has one version, labelled with an empty string as spec 2.1 allows. */
export const MODEL_VERSION = '';

export interface PublicPrediction {
  id: string;
  model: string;
  version: string;
  status: PredictionStatus;
  input: Record<string, unknown>;
  output: unknown;
  error: string | null;
  /**
   * Machine-readable reason when `failed` (an AppError code such as `cache_changed`, spec 7, or
   * `media_unreadable`; `interrupted` for work given up after restarts), else null. Beyond the
   * Replicate object: clients that do not know it ignore it.
   */
  error_code: string | null;
  logs: string;
  metrics: { predict_time?: number; total_time?: number; audio_duration?: number };
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  urls: { get: string; cancel: string };
  data_removed: boolean;
  /**
   * On an unfinished prediction: its place in the fair queue and the estimated start and end
   * (docs/api.md "Queue"). An extension: Replicate clients ignore members they do not know.
   */
  queue?: QueuePlace;
}

/** True for `succeeded`, `failed` and `canceled` (spec 3; replicate-compat.md 5). */
export function isTerminalStatus(status: string): boolean {
  return TERMINAL_STATUSES.has(status);
}
