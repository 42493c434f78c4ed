import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { TRANSCRIBE_QUEUE, type PredictionMetrics, type ServiceContext } from '@transcribe/core';

/** The Prometheus registry of one service, and the collaborator the prediction code reports to. */
export interface ServiceMetrics {
  registry: Registry;
  /** The collaborator the prediction code and the rate limiter report to (`ctx.metrics`). */
  predictions: PredictionMetrics;
}

/** Buckets for durations in seconds: 50 ms to about 1 hour. */
const SECONDS_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 1800, 3600];
/** Buckets for one stage's seconds: 10 ms (VAD or decoding of a short clip) to about 1 hour. */
const STAGE_BUCKETS = [0.01, 0.025, ...SECONDS_BUCKETS];
/** Buckets for real-time factors (work seconds per audio second). */
const RTF_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 5];

/**
 * Prometheus metrics of one service (prom-client), in a registry of its own (never the library's
 * global one, so two services in one process, as in the tests, never mix counts):
 * - `transcribe_predictions_created_total{channel}` and
 *   `transcribe_predictions_finished_total{status,error_code,engine,channel}`;
 * - histograms `transcribe_prediction_queue_seconds`, `transcribe_prediction_seconds` (end to end)
 *   and `transcribe_prediction_work_seconds`, by status; `transcribe_stage_seconds{stage}` (each
 *   successful stage: download, decode, vad, recognition, diarization, post_processing); `transcribe_real_time_factor` (work seconds
 *   per audio second of recognised predictions);
 * - `transcribe_audio_seconds_total`, `transcribe_cached_transcripts_total`;
 * - `transcribe_queue_jobs{state}` (waiting and active jobs of the transcribe queue, read at scrape);
 * - `transcribe_queue_wait_seconds{engine}` (creation to a worker's start, observed at the start) and
 *   `transcribe_queue_start_estimate_error_seconds{engine,direction}` (|start − the estimated start
 *   the prediction's logs last said|, `late` or `early`; predictions that waited without an estimate said
 *   are not counted: docs/queue.md);
 * - `transcribe_rate_limited_total{kind}`, `transcribe_webhook_attempts_total{event,outcome}`;
 * - `transcribe_llm_calls_total{outcome}` and `transcribe_remote_asr_calls_total{outcome}`: every
 *   HTTP attempt, retries included, `ok` or `failed`;
 * - Node's process metrics (`process_*`, `nodejs_*`: CPU, memory, event-loop lag, GC).
 * @param ctx the service, for the queue depth read at each scrape.
 * @example
 * const metrics = createServiceMetrics(ctx);
 * ctx.metrics = metrics.predictions;
 * app.get('/metrics', async (_req, res) => res.type(metrics.registry.contentType).send(await metrics.registry.metrics()));
 */
export function createServiceMetrics(ctx: Pick<ServiceContext, 'boss'>): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const created = new Counter({
    name: 'transcribe_predictions_created_total',
    help: 'Predictions created, by channel (api, bot, portal).',
    labelNames: ['channel'],
    registers: [registry],
  });
  const finished = new Counter({
    name: 'transcribe_predictions_finished_total',
    help: 'Predictions that ended, by status, error code (empty unless failed), engine and channel.',
    labelNames: ['status', 'error_code', 'engine', 'channel'],
    registers: [registry],
  });
  const queue = new Histogram({
    name: 'transcribe_prediction_queue_seconds',
    help: 'Seconds from creation to the start of the work.',
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const queueWait = new Histogram({
    name: 'transcribe_queue_wait_seconds',
    help: 'Seconds a prediction waited for a worker (creation to start), by recognition engine, observed when it starts.',
    labelNames: ['engine'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const estimateError = new Histogram({
    name: 'transcribe_queue_start_estimate_error_seconds',
    help: 'Absolute error of the estimated start the prediction was last told (its logs), seconds, by engine and direction (late: started after the estimate).',
    labelNames: ['engine', 'direction'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const total = new Histogram({
    name: 'transcribe_prediction_seconds',
    help: 'Seconds from creation to the end, by status.',
    labelNames: ['status'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const work = new Histogram({
    name: 'transcribe_prediction_work_seconds',
    help: 'Seconds of work of an ended prediction (download to finish), by status.',
    labelNames: ['status'],
    buckets: SECONDS_BUCKETS,
    registers: [registry],
  });
  const stages = new Histogram({
    name: 'transcribe_stage_seconds',
    help: 'Seconds of each successful stage of a prediction (download, decode, vad, recognition, diarization, post_processing); diarization runs alongside recognition.',
    labelNames: ['stage'],
    buckets: STAGE_BUCKETS,
    registers: [registry],
  });
  const rtf = new Histogram({
    name: 'transcribe_real_time_factor',
    help: 'Work seconds per audio second of succeeded predictions that ran recognition.',
    buckets: RTF_BUCKETS,
    registers: [registry],
  });
  const audio = new Counter({
    name: 'transcribe_audio_seconds_total',
    help: 'Seconds of audio of succeeded predictions.',
    registers: [registry],
  });
  const cached = new Counter({
    name: 'transcribe_cached_transcripts_total',
    help: 'Succeeded predictions whose transcript came from the cache (spec 2.6).',
    registers: [registry],
  });
  const webhooks = new Counter({
    name: 'transcribe_webhook_attempts_total',
    help: 'Webhook delivery attempts by event and outcome (delivered; retryable: retried while the deadline allows; refused: final).',
    labelNames: ['event', 'outcome'],
    registers: [registry],
  });
  const llmCalls = new Counter({
    name: 'transcribe_llm_calls_total',
    help: 'HTTP attempts to the post-processing chat endpoint (each retry counts), by outcome (ok: 2xx answer; failed: error, timeout or refused).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const asrCalls = new Counter({
    name: 'transcribe_remote_asr_calls_total',
    help: 'HTTP attempts to the remote ASR endpoint, one per audio chunk and retry, by outcome (ok: 2xx answer; failed: error, timeout or refused).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const externalCalls = { llm: llmCalls, remote_asr: asrCalls };
  const limited = new Counter({
    name: 'transcribe_rate_limited_total',
    help: 'Requests refused by a per-key rate limit (429), by kind.',
    labelNames: ['kind'],
    registers: [registry],
  });
  new Gauge({
    name: 'transcribe_queue_jobs',
    help: 'Jobs of the transcribe queue by state (waiting: created or retry; active), read at each scrape.',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const counts = await countQueueJobs(ctx).catch(() => null);
      if (!counts) return;
      this.set({ state: 'waiting' }, counts.waiting);
      this.set({ state: 'active' }, counts.active);
    },
  });
  return {
    registry,
    predictions: {
      rateLimited: (kind) => limited.inc({ kind }),
      webhookAttempt: (event, outcome) => webhooks.inc({ event, outcome }),
      externalCall: (service, outcome) => externalCalls[service].inc({ outcome }),
      stage: (stage, seconds) => stages.observe({ stage }, seconds),
      created: (channel) => created.inc({ channel }),
      queueStarted({ engine, waitSeconds, estimateErrorSeconds }) {
        queueWait.observe({ engine }, waitSeconds);
        if (estimateErrorSeconds !== null)
          estimateError.observe({ engine, direction: estimateErrorSeconds > 0 ? 'late' : 'early' }, Math.abs(estimateErrorSeconds));
      },
      finished(outcome) {
        finished.inc({ status: outcome.status, error_code: outcome.errorCode ?? '', engine: outcome.engine, channel: outcome.channel });
        if (outcome.queueSeconds !== null) queue.observe(outcome.queueSeconds);
        total.observe({ status: outcome.status }, outcome.totalSeconds);
        if (outcome.workSeconds !== null) work.observe({ status: outcome.status }, outcome.workSeconds);
        if (outcome.status !== 'succeeded' || outcome.audioSeconds === null) return;
        audio.inc(outcome.audioSeconds);
        if (outcome.fromCache) cached.inc();
        else if (outcome.workSeconds !== null && outcome.audioSeconds > 0) rtf.observe(outcome.workSeconds / outcome.audioSeconds);
      },
    },
  };
}

/** Waiting and active jobs of the transcribe queue (pg-boss `getQueueSize`, before: 'active' counts up to active). */
async function countQueueJobs(ctx: Pick<ServiceContext, 'boss'>): Promise<{ waiting: number; active: number }> {
  const waiting = await ctx.boss.getQueueSize(TRANSCRIBE_QUEUE);
  const upToActive = await ctx.boss.getQueueSize(TRANSCRIBE_QUEUE, { before: 'completed' });
  return { waiting, active: Math.max(0, upToActive - waiting) };
}
