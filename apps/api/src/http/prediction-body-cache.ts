import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { SETTLED_STATUSES, type PredictionRow } from '@transcribe/core';

/** One serialised `GET /predictions/{id}` answer. */
export interface CachedAnswer {
  /** The JSON body. */
  body: Buffer;
  /** Its strong entity tag (`"…"`, a hash of `body`), sent as `ETag`. */
  etag: string;
  /**
   * How far the row had come (predictionProgress): a larger value is a later state of the same
   * prediction, so an answer never replaces a later one.
   */
  progress: number;
  /** The row can no longer change (isSettledPrediction). */
  settled: boolean;
  /** Longest time it may be served, ms from its read, whatever the writes (an answer with a `queue` member). */
  maxAgeMs?: number;
}

/**
 * How long an answer with a `queue` member (an unfinished prediction's fair-queue place and
 * estimates) may be served, ms: its place moves as other predictions start, with no write to its own
 * row; the queue view itself is read at most once a second (core createQueueView).
 */
export const QUEUE_ANSWER_MAX_AGE_MS = 1000;

/**
 * How long an unfinished prediction's answer may be served on PostgreSQL, ms, counted from the
 * moment the database read it came from began. Writes made in this process drop their prediction's
 * answers at once; writes of other processes (workers, other API processes) do it through a
 * notification that may come late or never (watch-prediction-changes.ts), so this is the bound of a
 * poll's lag behind such a write: a poll sent more than this after a write committed shows it or a
 * later state. Half the clients' fastest polling interval (0.5 s; spec 4.3).
 */
export const UNFINISHED_ANSWER_TTL_MS = 250;

/**
 * An in-process cache of serialised `GET /predictions/{id}` answers so a poll touches no database.
 * Entries are keyed by (API key id, prediction id, the request's `X-Service-Output-Transformers`
 * value or its absence): a key only ever reaches entries filled by its own successful reads, and
 * another key still gets the 404 of the database (spec 5). The total size (bodies plus keys, bytes)
 * stays under `maxBytes`, the least recently used entries going first.
 *
 * Finished predictions (isSettledPrediction) can no longer change and are served until evicted.
 * An unfinished one is served only while the database read it came from began less than
 * `unfinishedTtlMs` ago and after the prediction was last forgotten: every write in this process
 * calls `forget` before its writer returns, other processes' writes when their notification arrives
 * (watch-prediction-changes.ts). Comparing with the read's beginning, not its end, keeps a read that
 * raced a write (and may have seen the state before it) from being served, so within one process a
 * poll sent after a write returned shows it. And an answer never replaces a later state of the same
 * prediction, so no poll is answered with an older state than an earlier poll was from this cache.
 */
export interface PredictionBodyCache {
  /** The answer stored for this request, or undefined. `header` null = no header sent. */
  get(apiKeyId: string, id: string, header: string | null): CachedAnswer | undefined;
  /** Call right before reading a prediction from the database; pass what it returns to `set`. */
  beginRead(): number;
  /**
   * Stores `answer` when it may be kept (see the interface); an entry larger than the whole cache
   * is not stored. `readBegan` is what beginRead returned before the read; without it only a
   * settled answer is stored.
   * @returns whether it was stored.
   */
  set(apiKeyId: string, id: string, header: string | null, answer: CachedAnswer, readBegan?: number): boolean;
  /** Makes every unfinished answer of these predictions read so far unservable: their rows were just written. */
  forget(ids: readonly string[]): void;
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

/**
 * A number that grows with every write to a prediction row: every writer only appends to `logs`,
 * sets `started_at` or `audio_seconds` once, or ends the row (spec 3: `processing` → a terminal
 * status), and none undoes another's change, so the sum of these marks strictly increases.
 */
export function predictionProgress(row: Pick<PredictionRow, 'status' | 'logs' | 'startedAt' | 'audioSeconds'>): number {
  return (isSettledPrediction(row) ? 2 ** 40 : 0) + row.logs.length + (row.startedAt ? 1 : 0) + (row.audioSeconds !== null ? 1 : 0);
}

/** The answer to keep and send for `body` of `row`: its ETag (a hash of the bytes), progress and finality. */
export function toCachedAnswer(row: Pick<PredictionRow, 'status' | 'logs' | 'startedAt' | 'audioSeconds'>, body: Buffer): CachedAnswer {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag, progress: predictionProgress(row), settled: isSettledPrediction(row) };
}

/** Stripes of forgottenAt (a shared stripe only makes an answer unservable early, never a stale one servable). */
const STRIPES = 4096;

/** A stored answer and when the database read it came from began (performance.now(), ms). */
interface Entry {
  answer: CachedAnswer;
  readBegan: number;
}

/**
 * Creates an empty cache of at most `maxBytes` (0 stores nothing), least recently used first out
 * (lru-cache). `unfinishedTtlMs`: default UNFINISHED_ANSWER_TTL_MS; 0 keeps finished answers only;
 * Infinity keeps unfinished ones until forgotten (when every writer is in this process: PGlite).
 */
export function createPredictionBodyCache(maxBytes: number, unfinishedTtlMs = UNFINISHED_ANSWER_TTL_MS): PredictionBodyCache {
  const keyOf = (apiKeyId: string, id: string, header: string | null) => `${apiKeyId}\n${id}\n${header === null ? '-' : `+${header}`}`;
  const sizeOf = (entry: Entry, key: string) => key.length * 2 + entry.answer.body.length + entry.answer.etag.length * 2;
  // lru-cache needs a positive bound; with 0 nothing is ever stored, so the bound never matters.
  const entries = new LRUCache<string, Entry>({ maxSize: Math.max(1, maxBytes), sizeCalculation: sizeOf });
  /** When the predictions of each stripe were last forgotten (performance.now(), ms). */
  const forgottenAt = new Float64Array(STRIPES).fill(-Infinity);
  const stripeOf = (id: string) => {
    let hash = 2166136261;
    for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
    return (hash >>> 0) % STRIPES;
  };
  /** An unfinished answer is served while its read is younger than the TTL and began after its prediction was last forgotten. */
  const current = (id: string, readBegan: number) =>
    readBegan > forgottenAt[stripeOf(id)]! && performance.now() - readBegan < unfinishedTtlMs;
  return {
    get(apiKeyId, id, header) {
      const entry = entries.get(keyOf(apiKeyId, id, header));
      if (!entry) return undefined;
      if (entry.answer.maxAgeMs !== undefined && performance.now() - entry.readBegan >= entry.answer.maxAgeMs) return undefined;
      return entry.answer.settled || current(id, entry.readBegan) ? entry.answer : undefined;
    },
    beginRead: () => performance.now(),
    set(apiKeyId, id, header, answer, readBegan = -Infinity) {
      if (!answer.settled && !current(id, readBegan)) return false;
      const key = keyOf(apiKeyId, id, header);
      const held = entries.peek(key);
      if (held && held.answer.progress > answer.progress) return false; // never back to an earlier state
      entries.delete(key);
      const entry = { answer, readBegan };
      if (sizeOf(entry, key) > maxBytes) return false; // larger than the whole cache: not stored
      entries.set(key, entry);
      return true;
    },
    forget(ids) {
      const now = performance.now();
      for (const id of ids) forgottenAt[stripeOf(id)] = now;
    },
    get bytes() {
      return entries.calculatedSize;
    },
    get size() {
      return entries.size;
    },
  };
}
