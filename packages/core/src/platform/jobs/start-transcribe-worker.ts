import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type PgBoss from 'pg-boss';
import { WorkerStoppingError, type StopReason } from '../errors/worker-stopping-error.ts';
import type { ServiceContext } from '../../service-context.ts';
import { giveJobBack } from './give-job-back.ts';
import { holdJobLease } from './hold-job-lease.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';
import { startJobReclaimer } from './reclaim-abandoned-jobs.ts';
import { registerLocalTranscribeWorkers } from './wake-transcribe-workers.ts';
import type { TranscribeJobHandler } from './transcribe-job-handler.ts';
import { logEvent } from '../logging/log-event.ts';

interface TranscribeJobData {
  predictionId: string;
}

export interface TranscribeWorkerOptions {
  /** Jobs this process runs at once. */
  concurrency: number;
  /** How often an idle worker polls for jobs of other processes, seconds (default 0.5); jobs sent here wake it at once. */
  pollingIntervalSeconds?: number;
  /** How often a running job's lease heartbeat is refreshed, ms (default 10 s). */
  heartbeatMs?: number;
  /** A lease silent for this long belongs to a dead worker and its job is retried, ms (default 45 s). */
  leaseStaleMs?: number;
}

/** Longest wait for runs aborted at the stop deadline to end (a native call may not stop at once), ms. */
const ABORTED_RUNS_GRACE_MS = 10_000;

/**
 * Stops taking jobs; with `deadlineMs`, waits that long for running jobs, then aborts those still
 * running with a WorkerStoppingError naming `reason` (each counts as an interrupted try, logged as a
 * warning in words; their leases are released) and waits for them to end.
 */
export type StopTranscribeWorker = (deadlineMs?: number, reason?: StopReason) => Promise<void>;

/**
 * Starts `concurrency` pg-boss workers on the transcribe queue in this process, each try running
 * `jobs.run` while holding a heartbeat lease (platform/jobs/hold-job-lease.ts), and a reclaimer that
 * retries jobs of dead workers and gives up those whose every try was interrupted
 * (fail-given-up-predictions.ts). A job that throws is retried by pg-boss; on its last try
 * `jobs.failedForGood` ends the prediction (`interrupted` when that try was aborted at the stop's
 * deadline, else `internal`) so no poller waits forever. A run that was only waiting for a
 * recognition slot when the process began to stop (`ctx.stopping`) hands its job back without
 * spending a try (give-job-back.ts). A job created in this process wakes the workers at once
 * (wake-transcribe-workers.ts).
 */
export async function startTranscribeWorker(
  ctx: ServiceContext,
  options: TranscribeWorkerOptions,
  jobs: TranscribeJobHandler,
): Promise<StopTranscribeWorker> {
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const running = new Map<string, { abort: (reason: Error) => void; done: Promise<void> }>();
  const handler = async ([job]: PgBoss.JobWithMetadata<TranscribeJobData>[]) => {
    if (!job) return;
    const { predictionId } = job.data;
    const hardStop = new AbortController();
    let ended!: () => void;
    running.set(job.id, { abort: (reason) => hardStop.abort(reason), done: new Promise<void>((resolve) => (ended = resolve)) });
    try {
      const release = await holdJobLease(ctx.database.db, { predictionId, jobId: job.id, workerId }, heartbeatMs, ctx);
      try {
        await jobs.run(predictionId, hardStop.signal);
      } catch (error) {
        if (error instanceof WorkerStoppingError && error.beforeWork) {
          await giveJobBack(ctx.database, job.id);
          logEvent(
            ctx,
            'info',
            'worker',
            `stopping: prediction ${predictionId} was waiting for a recognition slot; its job is back in the queue, no try spent`,
            { prediction: predictionId, signal: error.signal },
          );
          return;
        }
        const stop: unknown = hardStop.signal.reason;
        if (hardStop.signal.aborted && stop instanceof WorkerStoppingError) {
          // The stop's deadline passed: an expected end of this try, said in words (never an error object).
          logEvent(ctx, 'warn', 'worker', `prediction ${predictionId} try ${job.retryCount + 1} interrupted: ${stop.message}`, {
            prediction: predictionId,
            signal: stop.signal,
          });
        } else {
          logEvent(ctx, 'error', 'worker', `prediction ${predictionId} try ${job.retryCount + 1} failed: ${(error as Error).message}`, {
            prediction: predictionId,
            err: error, // pino's error serializer: type, message, stack and cause
          });
        }
        if (job.retryCount < job.retryLimit) throw error;
        await jobs.failedForGood(predictionId, hardStop.signal.aborted ? 'interrupted' : 'internal'); // aborted at the stop deadline: an interrupted try
      } finally {
        await release();
      }
    } finally {
      running.delete(job.id);
      ended();
    }
  };
  const workOptions = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5 };
  const workerIds: string[] = [];
  for (let i = 0; i < options.concurrency; i++) {
    workerIds.push(await ctx.boss.work<TranscribeJobData>(TRANSCRIBE_QUEUE, workOptions, handler));
  }
  const forgetWorkers = registerLocalTranscribeWorkers(ctx, workerIds);
  const stopReclaimer = startJobReclaimer(
    ctx,
    { intervalMs: Math.max(1000, heartbeatMs), staleMs: options.leaseStaleMs ?? 45_000 },
    jobs.failedForGood,
  );
  return async (deadlineMs, stopReason = {}) => {
    forgetWorkers();
    stopReclaimer();
    await ctx.boss.offWork(TRANSCRIBE_QUEUE);
    if (deadlineMs === undefined || running.size === 0) return;
    const allEnded = () => Promise.all([...running.values()].map((run) => run.done));
    if (await endsWithin(allEnded(), deadlineMs)) return;
    const reason = new WorkerStoppingError(false, { ...stopReason, deadlineMs });
    for (const run of running.values()) run.abort(reason);
    await endsWithin(allEnded(), ABORTED_RUNS_GRACE_MS);
  };
}

/** Whether `work` settles within `ms`. */
async function endsWithin(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([work.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}
