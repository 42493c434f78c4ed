import type { Database } from '../../platform/db/open-database.ts';
import type { PredictionRow } from '../../platform/db/schema.ts';
import { buildQueueSnapshot, placeInSnapshot, type QueueEntry, type QueuePlace, type QueueSnapshot } from './estimate-queue-places.ts';
import { readEngineTiming } from './read-engine-timing.ts';
import { DEFAULT_JOB_COST_SECONDS as DEFAULT_COST } from './assign-fair-start-tags.ts';

/** A caller's unfinished prediction with its place (GET /v1/queue). */
export interface KeyQueueItem {
  id: string;
  status: 'waiting' | 'running';
  created_at: string;
  queue: QueuePlace;
}

/** The queue as one process sees it, read at most once per `maxAgeMs` and shared by every reader. */
export interface QueueView {
  /** The current snapshot (read anew when older than maxAgeMs; concurrent readers share one read). */
  snapshot(): Promise<QueueSnapshot>;
  /** The `queue` member of `row`, or null when it has ended. */
  placeOf(row: PredictionRow): Promise<QueuePlace | null>;
  /** The `queue` member of the unfinished prediction `id` as the snapshot holds it, or null when it holds none of that id. */
  placeById(id: string): Promise<QueuePlace | null>;
  /** The unfinished predictions of one key, running first, then waiting in the fair order. */
  listForKey(apiKeyId: string): Promise<KeyQueueItem[]>;
  /** Every key's counts, without names (for an operator): waiting and running per anonymous entry, largest first. */
  countsByKey(): Promise<{ waiting: number; running: number }[]>;
}

/** Options of createQueueView. */
export interface QueueViewOptions {
  /** The recognition engine of the deployment (its name keys `engine_timings`). */
  engine: string;
  /** Worker slots known to exist besides those seen running (this process's WORKER_CONCURRENCY). */
  slotsHint: number;
  /**
   * How old a snapshot may be when served, ms (default 1000); a deep queue's snapshot lives longer,
   * 1 ms per unfinished prediction (20,000 waiting: 20 s), so the cost of reading it stays about
   * 1,000 rows a second however deep the queue is, while its far end barely moves in that time.
   */
  maxAgeMs?: number;
}

/**
 * The fair queue's view for positions and time estimates (docs/api.md "Queue"): one statement reads
 * every unfinished prediction through the partial index `predictions_unfinished_idx` and one the
 * engine's timing, at most once a second per process however many clients poll (less often for a
 * queue of over 1,000: QueueViewOptions.maxAgeMs); positions and
 * estimates come from estimate-queue-places.ts. Reads the service's own rows only (never pg-boss's).
 * @throws Error from the database (from each method).
 */
export function createQueueView(database: Pick<Database, 'executeSql'>, options: QueueViewOptions): QueueView {
  const maxAgeMs = options.maxAgeMs ?? 1000;
  let current: QueueSnapshot | null = null;
  let reading: Promise<QueueSnapshot> | null = null;

  const read = async (): Promise<QueueSnapshot> => {
    const [{ rows }, model] = await Promise.all([
      database.executeSql(
        `SELECT id, api_key_id, queue_priority, created_at, started_at, audio_seconds, queue_cost
           FROM predictions WHERE status = 'processing'`,
      ),
      readEngineTiming(database, options.engine),
    ]);
    const entries = (rows as Record<string, unknown>[]).map((row): QueueEntry => ({
      id: String(row.id),
      apiKeyId: String(row.api_key_id),
      priority: row.queue_priority === null ? null : Number(row.queue_priority),
      createdAt: new Date(row.created_at as string),
      startedAt: row.started_at === null ? null : new Date(row.started_at as string),
      audioSeconds: row.audio_seconds === null ? null : Number(row.audio_seconds),
      expectedAudioSeconds: expectedAudio(row.queue_cost),
    }));
    return buildQueueSnapshot(entries, model, Date.now(), options.slotsHint);
  };

  const snapshot = async (): Promise<QueueSnapshot> => {
    if (current && Date.now() - current.at < Math.max(maxAgeMs, current.waiting.length + current.running.length)) return current;
    reading ??= read().finally(() => (reading = null));
    current = await reading;
    return current;
  };

  return {
    snapshot,
    async placeOf(row) {
      if (row.status !== 'processing' && row.status !== 'starting') return null;
      return placeInSnapshot(await snapshot(), {
        id: row.id,
        apiKeyId: row.apiKeyId,
        priority: row.queuePriority,
        createdAt: row.createdAt,
        startedAt: row.startedAt,
        audioSeconds: row.audioSeconds,
        expectedAudioSeconds: expectedAudio(row.queueCost),
        status: row.status,
      });
    },
    async placeById(id) {
      const view = await snapshot();
      const entry = view.running.find((item) => item.id === id) ?? view.waiting.find((item) => item.id === id);
      return entry ? placeInSnapshot(view, { ...entry, status: 'processing' }) : null;
    },
    async listForKey(apiKeyId) {
      const view = await snapshot();
      const items: KeyQueueItem[] = [];
      for (const entry of [...view.running, ...view.waiting]) {
        if (entry.apiKeyId !== apiKeyId) continue;
        const place = placeInSnapshot(view, { ...entry, status: 'processing' })!;
        items.push({
          id: entry.id,
          status: entry.startedAt ? 'running' : 'waiting',
          created_at: entry.createdAt.toISOString(),
          queue: place,
        });
      }
      return items;
    },
    async countsByKey() {
      const view = await snapshot();
      const counts = new Map<string, { waiting: number; running: number }>();
      for (const entry of [...view.running, ...view.waiting]) {
        const count = counts.get(entry.apiKeyId) ?? { waiting: 0, running: 0 };
        if (entry.startedAt) count.running += 1;
        else count.waiting += 1;
        counts.set(entry.apiKeyId, count);
      }
      return [...counts.values()].sort((a, b) => b.waiting + b.running - (a.waiting + a.running));
    },
  };
}

/**
 * The expected length of a job from the cost charged when queued: the default cost stands for "not
 * known", so it gives null (the estimate then assumes the recent typical length).
 */
function expectedAudio(cost: unknown): number | null {
  if (cost === null || cost === undefined) return null;
  const value = Number(cost);
  return value === DEFAULT_COST ? null : value;
}
