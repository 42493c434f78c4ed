import type { ServiceContext } from '../../../service-context.ts';
import type { TranscribeJobHandler } from '../../../platform/jobs/transcribe-job-handler.ts';
import { failPrediction } from '../fail-prediction.ts';
import { runPrediction } from './run-prediction.ts';

/**
 * What the transcribe worker (platform/jobs/start-transcribe-worker.ts) and the given-up check
 * (platform/jobs/fail-given-up-predictions.ts) do with a prediction's job: `run` is runPrediction;
 * `failedForGood` ends the prediction `failed` (failPrediction, the one failure rule), then, when
 * this call ended it, publishes `ended` on `ctx.predictionEvents` and waits for it (its `completed`
 * webhook).
 */
export function createTranscribeJobHandler(ctx: ServiceContext): TranscribeJobHandler {
  return {
    run: (predictionId, signal) => runPrediction(ctx, predictionId, signal),
    failedForGood: async (predictionId, reason) => {
      const ended = await failPrediction(ctx, predictionId, reason);
      if (ended) await ctx.predictionEvents.publish({ type: 'ended', predictionId }); // webhook `completed`
      return ended;
    },
  };
}
