import { LRUCache } from 'lru-cache';
import { SETTLED_STATUSES, type PredictionRow } from '@transcribe/core';

/**
 * An in-process cache of serialised `GET /predictions/{id}` answers of finished predictions
 * so a poll of a finished prediction touches no database. Entries are keyed by
 * (API key id, prediction id, the request's `X-Service-Output-Transformers` value or its absence):
 * a key only ever reaches entries filled by its own successful reads, and another key still gets
 * the 404 of the database (spec 5). The total size (bodies plus keys, bytes) stays under `maxBytes`,
 * the least recently used entries going first. Only rows that can no longer change are stored:
 * see `isSettledPrediction`.
 */
export interface PredictionBodyCache {
  /** The JSON body stored for this request, or undefined. `header` null = no header sent. */
  get(apiKeyId: string, id: string, header: string | null): Buffer | undefined;
  /** Stores `body`; an entry larger than the whole cache is not stored. */
  set(apiKeyId: string, id: string, header: string | null, body: Buffer): void;
  /** Bytes held now (bodies plus keys). */
  readonly bytes: number;
  /** Entries held now. */
  readonly size: number;
}

/**
 * Whether a row's public object can no longer change: `succeeded`, `failed` and `canceled` rows are
 * written once, with their last log line, by finish-prediction.ts or cancel-prediction.ts, and
 * nothing updates them later (log lines and the other worker writes only touch unfinished rows;
 * predictions are never deleted). Uses SETTLED_STATUSES of append-prediction-log.ts.
 */
export function isSettledPrediction(row: Pick<PredictionRow, 'status'>): boolean {
  return (SETTLED_STATUSES as readonly string[]).includes(row.status);
}

/** Creates an empty cache of at most `maxBytes` (0 stores nothing), least recently used first out (lru-cache). */
export function createPredictionBodyCache(maxBytes: number): PredictionBodyCache {
  const keyOf = (apiKeyId: string, id: string, header: string | null) => `${apiKeyId}\n${id}\n${header === null ? '-' : `+${header}`}`;
  const sizeOf = (body: Buffer, key: string) => key.length * 2 + body.length;
  // lru-cache needs a positive bound; with 0 nothing is ever stored, so the bound never matters.
  const entries = new LRUCache<string, Buffer>({ maxSize: Math.max(1, maxBytes), sizeCalculation: sizeOf });
  return {
    get: (apiKeyId, id, header) => entries.get(keyOf(apiKeyId, id, header)),
    set(apiKeyId, id, header, body) {
      const key = keyOf(apiKeyId, id, header);
      entries.delete(key);
      if (sizeOf(body, key) > maxBytes) return; // larger than the whole cache: not stored
      entries.set(key, body);
    },
    get bytes() {
      return entries.calculatedSize;
    },
    get size() {
      return entries.size;
    },
  };
}
