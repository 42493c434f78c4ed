import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type PgBoss from 'pg-boss';
import { finishPrediction } from '../predictions/finish-prediction.ts';
import { runPrediction } from '../predictions/run-prediction.ts';
import { notifyWebhookCompleted } from '../webhooks/webhook-notifier.ts';
import type { ServiceContext } from '../service-context.ts';
import { holdJobLease } from './hold-job-lease.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';
import { startJobReclaimer } from './reclaim-abandoned-jobs.ts';
import { registerLocalTranscribeWorkers } from './wake-transcribe-workers.ts';

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

const INTERNAL_FAILURE = 'An internal error stopped this prediction. Try again; if it repeats, tell the operator.';

/**
 * Starts `concurrency` pg-boss workers on the transcribe queue in this process, each run holding a
 * heartbeat lease (jobs/hold-job-lease.ts) and a reclaimer that retries jobs of dead workers. A job
 * that throws is retried by pg-boss; on its last try the prediction ends `failed` with a generic
 * message so no poller waits forever. A job created in this process wakes the workers at once
 * (wake-transcribe-workers.ts). Returns a function that stops taking new jobs.
 */
export async function startTranscribeWorker(ctx: ServiceContext, options: TranscribeWorkerOptions): Promise<() => Promise<void>> {
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const handler = async ([job]: PgBoss.JobWithMetadata<TranscribeJobData>[]) => {
    if (!job) return;
    const { predictionId } = job.data;
    const release = await holdJobLease(ctx.database.db, { predictionId, jobId: job.id, workerId }, heartbeatMs);
    try {
      await runPrediction(ctx, predictionId);
    } catch (error) {
      console.error(`[worker] prediction ${predictionId} try ${job.retryCount + 1} failed:`, error);
      if (job.retryCount < job.retryLimit) throw error;
      await finishPrediction(ctx.database.db, predictionId, { status: 'failed', error: INTERNAL_FAILURE, errorCode: 'internal' }, new Date());
      await notifyWebhookCompleted(ctx.database.db, predictionId);
    } finally {
      await release();
    }
  };
  const workOptions = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5 };
  const workerIds: string[] = [];
  for (let i = 0; i < options.concurrency; i++) {
    workerIds.push(await ctx.boss.work<TranscribeJobData>(TRANSCRIBE_QUEUE, workOptions, handler));
  }
  const forgetWorkers = registerLocalTranscribeWorkers(ctx.boss, workerIds);
  const stopReclaimer = startJobReclaimer(ctx.database, ctx.boss, {
    intervalMs: Math.max(1000, heartbeatMs),
    staleMs: options.leaseStaleMs ?? 45_000,
  });
  return async () => {
    forgetWorkers();
    stopReclaimer();
    await ctx.boss.offWork(TRANSCRIBE_QUEUE);
  };
}
