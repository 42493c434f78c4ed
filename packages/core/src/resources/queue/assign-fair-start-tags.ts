import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { fairShareKeys } from '../../platform/db/queue-schema.ts';

/**
 * Cost charged to a key for a job whose audio length is not known when it is queued (a link, an
 * upload not yet probed), seconds of audio. The charge is settled to the real length when the job
 * ends (settle-fair-share.ts).
 */
export const DEFAULT_JOB_COST_SECONDS = 60;

/** Longest cost counted for one job, seconds of audio: the service's 24-hour limit (pipeline/decode/recording-length-limit.ts). */
const MAX_JOB_COST_SECONDS = 24 * 3600;

/** Largest pg-boss priority magnitude: its `priority` column is a PostgreSQL `integer` (int4). */
const MAX_PRIORITY = 2 ** 31 - 1;

/**
 * The virtual clock as SQL: the clock row, or, when it is missing (a fresh database, or the UNLOGGED
 * table emptied by a database crash), the start tag of the earliest waiting job (from its priority,
 * through the partial index of unfinished predictions), else 0.
 */
export const VIRTUAL_CLOCK_SQL = `coalesce((SELECT max(virtual_time) FROM fair_share_clock),
  (SELECT -max(queue_priority) FROM predictions WHERE status = 'processing' AND started_at IS NULL), 0)::float8`;

/** One job to queue: the key it is charged to and its expected length. */
export interface FairQueueRequest {
  /** The API key (a bot user has a key of its own, so its work is charged to the person). */
  key: string;
  /** Audio length in seconds when known at queue time; else DEFAULT_JOB_COST_SECONDS is charged. */
  audioSeconds?: number | null | undefined;
}

/** Where a job goes in the fair order. */
export interface FairQueuePlace {
  /** Virtual start tag, virtual seconds (stored on the prediction as `queue_tag`). */
  tag: number;
  /** pg-boss priority of the job (higher is fetched first): `-round(tag)`. */
  priority: number;
  /** Cost charged to the key, seconds of audio. */
  cost: number;
}

/** The cost charged for a job of `audioSeconds` (unknown: DEFAULT_JOB_COST_SECONDS), seconds, at least 1. */
export function fairJobCost(audioSeconds: number | null | undefined): number {
  if (audioSeconds === null || audioSeconds === undefined || !Number.isFinite(audioSeconds)) return DEFAULT_JOB_COST_SECONDS;
  return Math.min(Math.max(audioSeconds, 1), MAX_JOB_COST_SECONDS);
}

/**
 * The pg-boss priority of a virtual start tag: earlier tags first (pg-boss fetches the highest
 * priority first, then the oldest), one priority step per virtual second. A tag past 2^31 − 1
 * virtual seconds (some 68 years of one key's audio) is clamped.
 */
export function fairQueuePriority(tag: number): number {
  return -Math.min(Math.max(Math.round(tag), 0), MAX_PRIORITY);
}

/**
 * Start-time fair queueing (Goyal, Vin, Cheng, "Start-time Fair Queueing", SIGCOMM 1996) across
 * keys, decided when jobs are queued and carried by pg-boss's public `priority` option, so that every
 * worker process, whatever entry point queued the job (API, bot, OpenAI endpoint), takes the next job
 * in the same order: a job's start tag is the later of the virtual clock (the start tag of the latest
 * job a worker took: advance-virtual-clock.ts) and the finish tag of its key's previous job; its
 * finish tag is start + cost. A key that had little recognition time recently thus starts at the
 * clock, ahead of the waiting backlog of a busy key; a key alone takes every slot in its own order.
 *
 * One statement: per key an upsert of `fair_share_keys` under its row lock (keys locked in sorted
 * order, so concurrent creates cannot deadlock), returning the new finish tag; the tags of the
 * batch's jobs of one key follow from it in their order. Run it in the create's transaction when
 * there is one; alone it is still atomic (a create that then fails leaves its key charged for one
 * job it did not get, settled at no point: at most one job's cost). The statement is prepared
 * (drizzle's `.prepare(name)`; its text never varies, the batch is its one JSON parameter), so on
 * PostgreSQL it is parsed and planned once per connection and each create's run is one round trip.
 * @param db the drizzle database or the create's transaction.
 * @param requests the jobs of one create batch, in queue order.
 * @returns one place per request, in their order.
 * @throws Error from the database.
 */
export async function assignFairStartTags(db: Pick<Db, 'insert'>, requests: readonly FairQueueRequest[]): Promise<FairQueuePlace[]> {
  const costs = requests.map((request) => fairJobCost(request.audioSeconds));
  const totals = new Map<string, number>();
  requests.forEach((request, i) => totals.set(request.key, (totals.get(request.key) ?? 0) + costs[i]!));
  const clock = sql.raw(VIRTUAL_CLOCK_SQL);
  const rows = await db
    .insert(fairShareKeys)
    .select(
      sql`SELECT w.key, ${clock} + w.total FROM json_to_recordset(${sql.placeholder('batch')}::json) AS w(key text, total float8) ORDER BY w.key`,
    )
    .onConflictDoUpdate({
      target: fairShareKeys.key,
      set: { lastFinish: sql`greatest(${fairShareKeys.lastFinish}, ${clock}) + (excluded.last_finish - ${clock})` },
    })
    .returning({ key: fairShareKeys.key, lastFinish: fairShareKeys.lastFinish })
    .prepare('assign_fair_start_tags')
    .execute({ batch: JSON.stringify([...totals].map(([key, total]) => ({ key, total }))) });
  const next = new Map<string, number>();
  for (const row of rows) next.set(row.key, Number(row.lastFinish) - totals.get(row.key)!);
  return requests.map((request, i) => {
    const tag = next.get(request.key);
    if (tag === undefined) throw new Error(`fair_share_keys returned no row for a key of the batch`);
    next.set(request.key, tag + costs[i]!);
    return { tag, priority: fairQueuePriority(tag), cost: costs[i]! };
  });
}
