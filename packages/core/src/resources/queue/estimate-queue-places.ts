/**
 * A linear model of how long a job holds a worker slot on this deployment: `overheadSeconds +
 * secondsPerAudioSecond × audio seconds` (the real-time factor of the engine and model plus a
 * per-job cost: download, decode, VAD start), learnt from finished recognitions (read-engine-timing.ts).
 */
export interface JobTimeModel {
  overheadSeconds: number;
  secondsPerAudioSecond: number;
  /** Audio length assumed for a job not yet probed, seconds (the recent mean). */
  typicalAudioSeconds: number;
}

/** An unfinished prediction as the queue's estimate reads it. */
export interface QueueEntry {
  id: string;
  apiKeyId: string;
  /** pg-boss priority of its job (higher is fetched first); null: queued before the fair queue (0). */
  priority: number | null;
  createdAt: Date;
  /** When a worker took it, or null while it waits. */
  startedAt: Date | null;
  /** Probed length, seconds, or null. */
  audioSeconds: number | null;
  /** Length charged when queued (the stated length, else a default), seconds, or null. */
  expectedAudioSeconds: number | null;
}

/** The additive `queue` member of an unfinished prediction (docs/api.md "Queue"). */
export interface QueuePlace {
  /** Waiting jobs a worker takes before this one under the fair order (0 = next; running: 0). */
  position: number;
  /** Seconds of audio of those jobs (a job not yet probed counts its expected length). */
  ahead_audio_seconds: number;
  /** ISO 8601: when a worker is expected to take it (running: when it did). */
  estimated_start_at: string;
  /** ISO 8601: when it is expected to end. */
  estimated_completed_at: string;
}

/** The ordered state of the queue at one moment. */
export interface QueueSnapshot {
  /** When it was read, ms since the epoch. */
  at: number;
  /** Waiting entries in the order workers take them (fair order: priority desc, created, id). */
  waiting: QueueEntry[];
  running: QueueEntry[];
  model: JobTimeModel;
  /** Worker slots assumed: the running jobs, at least the configured hint and 1. */
  slots: number;
  /** Expected start (ms) of the job at each waiting index, and of one more at the end (index waiting.length). */
  starts: number[];
  /** Audio seconds before each waiting index (prefix sums; index waiting.length: all). */
  aheadAudio: number[];
}

/** Shortest remaining time assumed for a running job that has overrun its estimate: this share of its estimate. */
const OVERRUN_REMAINING_SHARE = 0.1;

/** The pg-boss fetch order: higher priority first, then older, then smaller id. Negative when `a` goes first. */
export function compareQueueOrder(
  a: Pick<QueueEntry, 'priority' | 'createdAt' | 'id'>,
  b: Pick<QueueEntry, 'priority' | 'createdAt' | 'id'>,
): number {
  return (b.priority ?? 0) - (a.priority ?? 0) || a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Seconds a job of this entry is expected to hold a slot. */
export function expectedJobSeconds(model: JobTimeModel, entry: Pick<QueueEntry, 'audioSeconds' | 'expectedAudioSeconds'>): number {
  const audio = entry.audioSeconds ?? entry.expectedAudioSeconds ?? model.typicalAudioSeconds;
  return Math.max(0, model.overheadSeconds + model.secondsPerAudioSecond * audio);
}

/**
 * Orders the unfinished jobs and simulates the slots (list scheduling: each waiting job, in the fair
 * order, takes the slot that frees first; a running job frees its slot at its start plus its expected
 * time, or a little after now when it overran).
 * @param slotsHint worker slots known to exist (this process's WORKER_CONCURRENCY); the running jobs count too.
 */
export function buildQueueSnapshot(entries: QueueEntry[], model: JobTimeModel, now: number, slotsHint: number): QueueSnapshot {
  const waiting = entries.filter((entry) => entry.startedAt === null).sort(compareQueueOrder);
  const running = entries.filter((entry) => entry.startedAt !== null);
  const slots = Math.max(1, slotsHint, running.length);
  const free: number[] = running.map((entry) => {
    const expected = expectedJobSeconds(model, entry) * 1000;
    const elapsed = now - entry.startedAt!.getTime();
    return now + Math.max(expected - elapsed, expected * OVERRUN_REMAINING_SHARE);
  });
  while (free.length < slots) free.push(now);
  free.sort((a, b) => a - b);
  const starts: number[] = [];
  const aheadAudio: number[] = [0];
  for (const entry of waiting) {
    const start = free.shift()!;
    starts.push(start);
    insertSorted(free, start + expectedJobSeconds(model, entry) * 1000);
    aheadAudio.push(aheadAudio.at(-1)! + (entry.audioSeconds ?? entry.expectedAudioSeconds ?? model.typicalAudioSeconds));
  }
  starts.push(free[0]!);
  return { at: now, waiting, running, model, slots, starts, aheadAudio };
}

/**
 * The `queue` member of an unfinished prediction from a snapshot, also for one queued after the
 * snapshot was read (placed by its priority among the waiting ones).
 * @returns null for a finished prediction.
 */
export function placeInSnapshot(snapshot: QueueSnapshot, entry: QueueEntry & { status: string }): QueuePlace | null {
  if (entry.status !== 'processing' && entry.status !== 'starting') return null;
  const iso = (ms: number) => new Date(Math.round(ms / 1000) * 1000).toISOString();
  const seconds = expectedJobSeconds(snapshot.model, entry) * 1000;
  if (entry.startedAt !== null) {
    const start = entry.startedAt.getTime();
    const end = Math.max(start + seconds, snapshot.at + seconds * OVERRUN_REMAINING_SHARE);
    return { position: 0, ahead_audio_seconds: 0, estimated_start_at: entry.startedAt.toISOString(), estimated_completed_at: iso(end) };
  }
  // The fair order is total (priority, then age, then id), so the binary search finds a waiting
  // entry's own index, and where one queued after the snapshot goes, without a pass over the queue.
  const index = countBefore(snapshot.waiting, entry);
  const start = Math.max(snapshot.starts[index] ?? snapshot.at, snapshot.at);
  return {
    position: index,
    ahead_audio_seconds: Math.round(snapshot.aheadAudio[index] ?? 0),
    estimated_start_at: iso(start),
    estimated_completed_at: iso(start + seconds),
  };
}

/** How many of the sorted `waiting` go before `entry` in the fair order (binary search). */
function countBefore(waiting: QueueEntry[], entry: QueueEntry): number {
  let low = 0;
  let high = waiting.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareQueueOrder(waiting[middle]!, entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function insertSorted(values: number[], value: number): void {
  let i = values.length;
  while (i > 0 && values[i - 1]! > value) i -= 1;
  values.splice(i, 0, value);
}
