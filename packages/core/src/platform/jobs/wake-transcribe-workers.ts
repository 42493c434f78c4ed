import type PgBoss from 'pg-boss';

/** The transcribe workers (pg-boss worker ids) running in this process, per queue instance. */
const localWorkers = new WeakMap<PgBoss, Set<string>>();

/** Records workers started by start-transcribe-worker.ts on `boss`; returns the function that forgets them. */
export function registerLocalTranscribeWorkers(boss: PgBoss, workerIds: readonly string[]): () => void {
  let ids = localWorkers.get(boss);
  if (!ids) localWorkers.set(boss, (ids = new Set()));
  for (const id of workerIds) ids.add(id);
  return () => {
    for (const id of workerIds) ids.delete(id);
  };
}

/**
 * Wakes this process's transcribe workers on `boss` after a job was sent, so an idle one fetches it
 * now instead of after its polling interval (pg-boss `notifyWorker`; a busy one fetches again as
 * soon as its job ends). The job itself stays a durable pg-boss row: a wake-up only shortens the
 * wait, and workers of other processes still find it by polling (a repeat with a stored transcript
 * must end in milliseconds, not after a polling interval). Returns how many workers were woken (0
 * in an API-only process).
 */
export function wakeTranscribeWorkers(boss: PgBoss): number {
  const ids = localWorkers.get(boss);
  if (!ids) return 0;
  for (const id of ids) boss.notifyWorker(id);
  return ids.size;
}
