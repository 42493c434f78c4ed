import type { Database } from '../../platform/db/open-database.ts';
import { fairQueuePriority, VIRTUAL_CLOCK_SQL } from './assign-fair-start-tags.ts';
import type { QueueView } from './create-queue-view.ts';
import { placeInSnapshot } from './estimate-queue-places.ts';

/**
 * Seconds until a worker would take a job that key `apiKeyId` queued now: its start tag would be the
 * later of the virtual clock and the key's last finish tag (assign-fair-start-tags.ts), so it is
 * placed by that priority among the waiting jobs of the queue view's snapshot, and the slots'
 * simulation gives its start. Nothing is charged. Used to refuse a synchronous request whose wait
 * would be too long (the OpenAI-compatible endpoint's 429).
 * @returns seconds ≥ 0.
 * @throws Error from the database.
 */
export async function estimateNewJobWait(database: Pick<Database, 'executeSql'>, view: QueueView, apiKeyId: string): Promise<number> {
  const [{ rows }, snapshot] = await Promise.all([
    database.executeSql(
      `SELECT greatest(${VIRTUAL_CLOCK_SQL}, coalesce((SELECT last_finish FROM fair_share_keys WHERE key = $1), 0)) AS tag`,
      [apiKeyId],
    ),
    view.snapshot(),
  ]);
  const tag = Number((rows[0] as { tag: number | string }).tag);
  const now = new Date();
  const place = placeInSnapshot(snapshot, {
    id: '~', // after every id: among equal priorities and times, it goes last
    apiKeyId,
    priority: fairQueuePriority(tag),
    createdAt: now,
    startedAt: null,
    audioSeconds: null,
    expectedAudioSeconds: null,
    status: 'processing',
  })!;
  return Math.max(0, (Date.parse(place.estimated_start_at) - now.getTime()) / 1000);
}
