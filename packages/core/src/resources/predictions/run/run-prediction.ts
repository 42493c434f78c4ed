import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../../../platform/errors/app-error.ts';
import { WorkerStoppingError } from '../../../platform/errors/worker-stopping-error.ts';
import { runPostProcessing } from '../../../pipeline/post-process/run-post-processing.ts';
import { startStage } from '../../../platform/metrics/time-stage.ts';
import type { PostProcessType } from '../../../contract/spec/post-process-types.ts';
import type { Transcript } from '../../../contract/output/transcript-model.ts';
import { predictions, type PredictionRow } from '../../../platform/db/schema.ts';
import type { PredictionChannel, ServiceContext } from '../../../service-context.ts';
import { renderTranscript } from '../../../pipeline/render/render-transcript.ts';
import { shapeOutput } from '../../../pipeline/render/shape-output.ts';
import type { PredictionInput } from '../../../contract/validation/prediction-input.ts';
import { chargePrediction } from '../../billing/charge-prediction.ts';
import { appendPredictionLog } from '../append-prediction-log.ts';
import { produceTranscript } from './produce-transcript.ts';
import { dropFlaggedSegments } from '../../../pipeline/recognize/assess-segments.ts';
import { createStageLog, type StageLog } from '../../../pipeline/stage-log.ts';
import { releaseUpload } from '../../../platform/storage/share-upload.ts';
import { finishPrediction } from '../finish-prediction.ts';
import { failPrediction, failsAtOnce } from '../fail-prediction.ts';
import { announcePredictionChange } from '../announce-prediction-change.ts';
import { announceEarlySegment } from '../announce-early-segment.ts';
import { TERMINAL_STATUSES } from '../public-prediction.ts';
import { watchCancellation } from '../watch-cancellation.ts';
import { noteJobStarted } from '../../queue/note-job-started.ts';
import { settleQueueAccounts } from '../../queue/settle-queue-accounts.ts';

/**
 * The worker step for one prediction: fetch the recording, probe and decode it, run VAD and
 * recognition, render the output and store the terminal state (spec 3). A user-facing failure
 * (failsAtOnce) ends the prediction `failed` through failPrediction (the one failure rule,
 * resources/predictions/fail-prediction.ts); any other error is thrown so the job queue retries it. Running an already ended prediction does nothing. A prediction
 * canceled meanwhile (cancel-prediction.ts) stops at the next check (about 1 s) and stays `canceled`.
 */
export async function runPrediction(ctx: ServiceContext, predictionId: string, signal?: AbortSignal): Promise<void> {
  const row = await markStarted(ctx, predictionId);
  if (!row) return releaseUploadOfEnded(ctx, predictionId); // canceled before a worker took it
  void ctx.predictionEvents.publish({ type: 'started', predictionId }); // webhook `start`, once ever
  // One folder per attempt: a run reclaimed after an outage never shares files with a late one.
  const workDir = join(ctx.config.dataDir, 'work', `${predictionId}-${randomBytes(4).toString('hex')}`);
  const logger = ctx.logger?.child({ prediction: predictionId });
  let seq = 0; // recognised text, announced as the engine gives it, for clients that follow live
  const log = createStageLog(
    (line, fields) => {
      logger?.info({ stage: /^[\w-]+/.exec(line)?.[0] ?? 'progress', ...fields }, line); // the same line as the prediction's logs, with the stage's seconds when it ends one
      return appendPredictionLog(ctx, predictionId, line);
    },
    (segment) => void announceEarlySegment(ctx, predictionId, { seq: seq++, ...segment }),
  );
  const watch = watchCancellation(ctx.database.db, predictionId);
  const runSignal = signal ? AbortSignal.any([signal, watch.signal]) : watch.signal;
  let ended = false;
  let fromCache = false;
  let releaseLinkFlight: (() => Promise<void>) | null = null;
  try {
    await mkdir(workDir, { recursive: true });
    const produced = await produceTranscript(ctx, row, workDir, log, runSignal);
    releaseLinkFlight = produced.release; // after the charge: the same user's waiting repeat is then free (2.6.2)
    fromCache = produced.fromCache;
    const params = row.params;
    // drop_flagged: this prediction's transcript without its doubtful segments; the cache keeps them all.
    const transcript = params.drop_flagged ? dropFlagged(produced.transcript) : produced.transcript;
    if (await watch.check()) throw watch.signal.reason;
    const results = await postProcess(ctx, transcript, params, log, runSignal);
    if (await watch.check()) throw watch.signal.reason;
    const output = shapeOutput(renderTranscript(transcript, params.output_format), params.post_process, results);
    // Charged only once it succeeds: a failed or canceled prediction costs nothing (docs/caching-and-billing.md).
    await chargePrediction(ctx.database.db, {
      predictionId,
      apiKeyId: row.apiKeyId,
      mediaId: produced.mediaId,
      audioSeconds: transcript.source.length,
      usedCachedTranscript: produced.fromCache,
      pricePerMinute: ctx.config.pricePerMinute,
      windowDays: ctx.config.cacheTtlDays,
    });
    await rm(workDir, { recursive: true, force: true }); // gone before the end is visible: a client that sees it finds no files left
    await finishPrediction(ctx, predictionId, { status: 'succeeded', output, transcript, results }, row.startedAt ?? new Date()); // logs `succeeded`
    ended = true;
  } catch (error) {
    if (watch.canceled || (await watch.check())) {
      ended = true; // cancel-prediction.ts wrote the `canceled` line
      return;
    }
    const stop: unknown = signal?.reason;
    if (signal?.aborted && stop instanceof WorkerStoppingError) {
      // Aborted at the stop's deadline, whatever the stage made of the abort: an interrupted try, in words.
      logger?.warn({ signal: stop.signal }, `interrupted: ${stop.message}; the job queue retries it`);
      throw stop;
    }
    if (!failsAtOnce(error)) {
      logger?.error({ err: error }, 'the try failed; the job queue retries it'); // pino's error serializer: type, message, stack
      throw error;
    }
    logger?.warn(
      { error_code: error.code, cause: error.cause instanceof Error ? error.cause.message : undefined },
      `failed: ${error.message}`, // the operator's line keeps the whole message; the client's is failPrediction's
    );
    await rm(workDir, { recursive: true, force: true });
    await failPrediction(ctx, predictionId, error, row.startedAt ?? new Date()); // logs `failed: …`
    ended = true;
  } finally {
    await releaseLinkFlight?.();
    watch.stop();
    if (ended) await releaseUpload(ctx, row.source); // a retried run still needs it
    if (ended) await reportFinished(ctx, predictionId, fromCache);
    if (ended) await settleQueueAccounts(ctx, predictionId, fromCache); // the fair queue's charge and the time estimates learn the real length
    await ctx.predictionEvents.publish({ type: 'ended', predictionId }); // webhook `completed` if it ended
    await rm(workDir, { recursive: true, force: true });
  }
}

/** Runs the requested post-processing types (spec 2.4; all-or-nothing, spec 3); {} when none. */
async function postProcess(
  ctx: ServiceContext,
  transcript: Transcript,
  params: PredictionInput,
  log: StageLog,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  const types = (params.post_process ?? []) as PostProcessType[];
  if (types.length === 0) return {};
  if (!ctx.config.llm) throw new AppError('invalid_input', 'post_process needs a language model, and none is configured on this server.');
  const clock = startStage(ctx.metrics, 'post_processing');
  const results = await runPostProcessing({
    transcript,
    types,
    targetLanguage: params.target_language,
    customPrompt: params.custom_prompt,
    llm: ctx.config.llm,
    signal,
    onProgress: (line) => log.note(line), // progress only: never waited for
    metrics: ctx.metrics,
  });
  clock.done();
  return results;
}

/** Deletes the upload of a prediction that ended before it started (canceled while queued). */
async function releaseUploadOfEnded(ctx: ServiceContext, id: string): Promise<void> {
  const [row] = await ctx.database.db
    .select({ status: predictions.status, source: predictions.source })
    .from(predictions)
    .where(eq(predictions.id, id))
    .limit(1);
  if (row && TERMINAL_STATUSES.has(row.status)) {
    await releaseUpload(ctx, row.source);
    await reportFinished(ctx, id, false);
  }
}

/** Reports an ended prediction to `ctx.metrics` from its stored row (the status as it ended, whoever ended it). */
async function reportFinished(ctx: ServiceContext, id: string, fromCache: boolean): Promise<void> {
  if (!ctx.metrics && !ctx.logger) return;
  const [row] = await ctx.database.db
    .select()
    .from(predictions)
    .where(eq(predictions.id, id))
    .limit(1)
    .catch(() => []);
  if (!row?.completedAt || !TERMINAL_STATUSES.has(row.status)) return;
  const seconds = (from: Date, to: Date) => Math.max(0, (to.getTime() - from.getTime()) / 1000);
  const audioSeconds = row.audioSeconds;
  ctx.logger?.info(
    {
      prediction: id,
      stage: 'finished',
      status: row.status,
      error_code: row.errorCode ?? undefined,
      channel: row.namespace,
      engine: ctx.engine.name,
      queue_seconds: row.startedAt ? seconds(row.createdAt, row.startedAt) : undefined,
      total_seconds: seconds(row.createdAt, row.completedAt),
      audio_seconds: audioSeconds ?? undefined,
      real_time_factor: audioSeconds && row.predictTime !== null && !fromCache ? row.predictTime / audioSeconds : undefined,
      from_cache: fromCache,
    },
    `prediction ${row.status}`,
  );
  ctx.metrics?.finished({
    channel: row.namespace as PredictionChannel,
    status: row.status as 'succeeded' | 'failed' | 'canceled',
    errorCode: row.errorCode,
    engine: ctx.engine.name,
    queueSeconds: row.startedAt ? seconds(row.createdAt, row.startedAt) : null,
    totalSeconds: seconds(row.createdAt, row.completedAt),
    audioSeconds: row.audioSeconds,
    workSeconds: row.predictTime,
    fromCache,
  });
}

async function markStarted(ctx: ServiceContext, id: string): Promise<PredictionRow | null> {
  const [row] = await ctx.database.db.select().from(predictions).where(eq(predictions.id, id)).limit(1);
  if (!row || TERMINAL_STATUSES.has(row.status)) return null;
  if (row.startedAt) return row;
  const startedAt = new Date();
  await ctx.database.db
    .update(predictions)
    .set({ startedAt })
    .where(and(eq(predictions.id, id), eq(predictions.status, 'processing')));
  await announcePredictionChange(ctx, id); // `started_at` shows it
  await noteJobStarted(ctx, row, startedAt); // the fair queue's clock (keys that were idle start here) and wait metrics
  return { ...row, startedAt };
}

/** The transcript without its flagged segments (the `drop_flagged` input, docs/input-rules.md). */
function dropFlagged(transcript: Transcript): Transcript {
  return { ...transcript, segments: dropFlaggedSegments(transcript.segments) };
}
