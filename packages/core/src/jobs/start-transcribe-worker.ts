import type PgBoss from 'pg-boss';
import { finishPrediction } from '../predictions/finish-prediction.ts';
import { runPrediction } from '../predictions/run-prediction.ts';
import type { ServiceContext } from '../service-context.ts';
import { TRANSCRIBE_QUEUE } from './open-job-queue.ts';

interface TranscribeJobData {
  predictionId: string;
}

/**
 * Starts `concurrency` pg-boss workers on the transcribe queue in this process. A job that throws is
 * retried by pg-boss (retry limit of the queue); on its last try the prediction ends `failed` with a
 * generic message so no poller waits forever. Returns a function that stops taking new jobs.
 */
export async function startTranscribeWorker(
  ctx: ServiceContext,
  options: { concurrency: number; pollingIntervalSeconds?: number },
): Promise<() => Promise<void>> {
  const handler = async ([job]: PgBoss.JobWithMetadata<TranscribeJobData>[]) => {
    if (!job) return;
    try {
      await runPrediction(ctx, job.data.predictionId);
    } catch (error) {
      console.error(`[worker] prediction ${job.data.predictionId} try ${job.retryCount + 1} failed:`, error);
      if (job.retryCount >= job.retryLimit) {
        await finishPrediction(
          ctx.database.db,
          job.data.predictionId,
          { status: 'failed', error: 'An internal error stopped this prediction. Try again; if it repeats, tell the operator.', errorCode: 'internal' },
          new Date(),
        );
        return;
      }
      throw error;
    }
  };
  const options_ = { batchSize: 1, includeMetadata: true as const, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 0.5 };
  for (let i = 0; i < options.concurrency; i++) {
    await ctx.boss.work<TranscribeJobData>(TRANSCRIBE_QUEUE, options_, handler);
  }
  return () => ctx.boss.offWork(TRANSCRIBE_QUEUE);
}
