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
}

/** Taken by beginRead before a database read; set() stores the read's answer only if it is still current. */
export interface ReadTicket {
  readonly id: string;
  readonly generation: number;
  readonly epoch: number;
}

/**
 * An in-process cache of serialised `GET /predictions/{id}` answers so a poll touches no database.
 * Entries are keyed by (API key id, prediction id, the request's `X-Service-Output-Transformers`
 * value or its absence): a key only ever reaches entries filled by its own successful reads, and
 * another key still gets the 404 of the database (spec 5). The total size (bodies plus keys, bytes)
 * stays under `maxBytes`, the least recently used entries going first.
 *
 * Finished predictions (isSettledPrediction) can no longer change and are always kept. Unfinished
 * ones are kept only while `trustUnfinished` is true, i.e. while every write to a prediction row
 * reaches `forget` before its writer returns (http/watch-prediction-changes.ts: in-process events,
 * and on PostgreSQL the confirmed prediction-change channel). The rule that keeps them exact: an
 * answer read from the database is stored only if its prediction was not forgotten (and trust not
 * lost) since the read began (`beginRead`), so a read that raced a change never stores the state
 * before it; and never over a later state of the same prediction, so no poll is answered with an
 * older state than one an earlier poll was answered with from this cache.
 */
export interface PredictionBodyCache {
  /** The answer stored for this request, or undefined. `header` null = no header sent. */
  get(apiKeyId: string, id: string, header: string | null): CachedAnswer | undefined;
  /** Call before reading prediction `id` from the database; pass the ticket to `set`. */
  beginRead(id: string): ReadTicket;
  /**
   * Stores `answer` when it may be kept (see the interface); an entry larger than the whole cache
   * is not stored. Without `ticket` only a settled answer is stored.
   * @returns whether it was stored.
   */
  set(apiKeyId: string, id: string, header: string | null, answer: CachedAnswer, ticket?: ReadTicket): boolean;
  /** Drops every unfinished answer of these predictions: their rows were just written. */
  forget(ids: readonly string[]): void;
  /**
   * Whether unfinished answers may be served and stored. Every change of it drops all unfinished
   * answers and voids reads in flight (a change may have been missed while it was false).
   */
  trustUnfinished: boolean;
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

/** Change counters per prediction, in a fixed number of stripes (a shared stripe only voids a store, never lets a stale one in). */
const STRIPES = 4096;

/** Creates an empty cache of at most `maxBytes` (0 stores nothing), least recently used first out (lru-cache); `trustUnfinished` starts false. */
export function createPredictionBodyCache(maxBytes: number): PredictionBodyCache {
  const keyOf = (apiKeyId: string, id: string, header: string | null) => `${apiKeyId}\n${id}\n${header === null ? '-' : `+${header}`}`;
  const sizeOf = (answer: CachedAnswer, key: string) => key.length * 2 + answer.body.length + answer.etag.length * 2;
  // lru-cache needs a positive bound; with 0 nothing is ever stored, so the bound never matters.
  const entries = new LRUCache<string, CachedAnswer>({ maxSize: Math.max(1, maxBytes), sizeCalculation: sizeOf });
  /** Keys of the unfinished entries of each prediction (some may have been evicted since). */
  const unfinished = new Map<string, Set<string>>();
  const epochs = new Uint32Array(STRIPES);
  let generation = 0;
  let trusted = false;
  const stripeOf = (id: string) => {
    let hash = 2166136261;
    for (let i = 0; i < id.length; i += 1) hash = Math.imul(hash ^ id.charCodeAt(i), 16777619);
    return (hash >>> 0) % STRIPES;
  };
  const dropUnfinished = (id: string) => {
    const keys = unfinished.get(id);
    if (!keys) return;
    for (const key of keys) if (entries.peek(key)?.settled === false) entries.delete(key);
    unfinished.delete(id);
  };
  return {
    get(apiKeyId, id, header) {
      const answer = entries.get(keyOf(apiKeyId, id, header));
      return answer && (answer.settled || trusted) ? answer : undefined;
    },
    beginRead: (id) => ({ id, generation, epoch: epochs[stripeOf(id)]! }),
    set(apiKeyId, id, header, answer, ticket) {
      if (!answer.settled) {
        if (!trusted || !ticket || ticket.id !== id || ticket.generation !== generation || ticket.epoch !== epochs[stripeOf(id)])
          return false;
      }
      const key = keyOf(apiKeyId, id, header);
      const held = entries.peek(key);
      if (held && held.progress > answer.progress) return false; // never back to an earlier state
      entries.delete(key);
      if (sizeOf(answer, key) > maxBytes) return false; // larger than the whole cache: not stored
      entries.set(key, answer);
      if (!answer.settled) {
        let keys = unfinished.get(id);
        if (!keys) unfinished.set(id, (keys = new Set()));
        keys.add(key);
      }
      return true;
    },
    forget(ids) {
      for (const id of ids) {
        const stripe = stripeOf(id);
        epochs[stripe] = epochs[stripe]! + 1;
        dropUnfinished(id);
      }
    },
    get trustUnfinished() {
      return trusted;
    },
    set trustUnfinished(value: boolean) {
      if (value === trusted) return;
      trusted = value;
      generation += 1;
      for (const id of [...unfinished.keys()]) dropUnfinished(id);
    },
    get bytes() {
      return entries.calculatedSize;
    },
    get size() {
      return entries.size;
    },
  };
}
