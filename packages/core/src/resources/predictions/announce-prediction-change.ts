import type { ServiceContext } from '../../service-context.ts';
import { announceBroadcast } from '../../platform/db/announce-broadcast.ts';
import { confirmBroadcast } from '../../platform/db/confirm-broadcast.ts';
import type { ConfirmedBroadcast } from '../../platform/db/confirmed-broadcast.ts';

/**
 * The prediction-change channel: the body of an announcement is one prediction id. Watched by every
 * API process that answers polls of unfinished predictions from memory
 * (apps/api/src/http/watch-prediction-changes.ts).
 */
export const PREDICTION_BROADCAST: ConfirmedBroadcast = {
  channel: 'transcribe_prediction_changes',
  acksChannel: 'transcribe_prediction_change_acks',
  watcherApplicationName: 'transcribe-prediction-watcher',
};

/** How long a prediction write waits for every watching API process to confirm, ms. */
export const PREDICTION_CHANGE_CONFIRM_TIMEOUT_MS = 2_000;

/**
 * Says that prediction `id`'s row was just written (a log line, its start, its recording's length,
 * its end or cancellation), after the write committed, so no process answers a poll with the state
 * before it once this returns (spec 4.3: a poll shows the prediction as it is; the clients poll
 * every 0.5–1 s while it runs):
 * - in this process, `changed` is published on `ctx.predictionEvents`, whose listeners run
 *   synchronously before this returns;
 * - on PostgreSQL, the id is announced on PREDICTION_BROADCAST and this waits until every watching
 *   API process confirmed that it dropped its cached answers (platform/db/confirm-broadcast.ts), at
 *   most PREDICTION_CHANGE_CONFIRM_TIMEOUT_MS; a process that did not confirm is logged, and one
 *   whose channel is down serves no unfinished prediction from memory meanwhile.
 * PGlite has one process: nothing crosses processes and nothing is awaited.
 * Never throws: the write it follows has been made; a failure to announce is logged (the
 * watchers' heartbeat then notices that the channel is down).
 */
export async function announcePredictionChange(
  ctx: Pick<ServiceContext, 'database' | 'predictionEvents'> & Partial<Pick<ServiceContext, 'logger'>>,
  id: string,
): Promise<void> {
  void ctx.predictionEvents.publish({ type: 'changed', predictionId: id });
  if (ctx.database.kind !== 'postgres') return;
  const warn = (message: string) => ctx.logger?.warn({ component: 'predictions', prediction: id }, message);
  try {
    await confirmBroadcast(
      ctx.database,
      PREDICTION_BROADCAST,
      (ticket) => announceBroadcast(ctx.database.db, PREDICTION_BROADCAST, id, ticket),
      {
        timeoutMs: PREDICTION_CHANGE_CONFIRM_TIMEOUT_MS,
        onUnconfirmed: (missing, expected, timeoutMs) =>
          warn(
            `${missing} of ${expected} API processes did not confirm a change of prediction ${id} within ${timeoutMs} ms; a poll there may show the state before it until they do`,
          ),
      },
    );
  } catch (error) {
    warn(`the change of prediction ${id} could not be announced to other processes: ${(error as Error).message}`);
  }
}
