import type { ServiceContext } from '../../service-context.ts';

/**
 * Records transcribe workers started by start-transcribe-worker.ts in this process
 * (`ctx.localTranscribeWorkers`, pg-boss worker ids); returns the function that forgets them.
 */
export function registerLocalTranscribeWorkers(
  ctx: Pick<ServiceContext, 'localTranscribeWorkers'>,
  workerIds: readonly string[],
): () => void {
  const ids = (ctx.localTranscribeWorkers ??= new Set());
  for (const id of workerIds) ids.add(id);
  return () => {
    for (const id of workerIds) ids.delete(id);
  };
}

/**
 * Wakes this process's transcribe workers after a job was sent, so an idle one fetches it now
 * instead of after its polling interval (pg-boss `notifyWorker`; a busy one fetches again as soon
 * as its job ends). The job itself stays a durable pg-boss row: a wake-up only shortens the wait,
 * and workers of other processes still find it by polling (a repeat with a stored transcript must
 * end in milliseconds, not after a polling interval). Returns how many workers were woken (0 in an
 * API-only process).
 */
export function wakeTranscribeWorkers(ctx: Pick<ServiceContext, 'boss' | 'localTranscribeWorkers'>): number {
  const ids = ctx.localTranscribeWorkers;
  if (!ids) return 0;
  for (const id of ids) ctx.boss.notifyWorker(id);
  return ids.size;
}
