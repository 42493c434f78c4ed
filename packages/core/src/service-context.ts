import type PgBoss from 'pg-boss';
import type { FlagThresholds } from './pipeline/recognize/assess-segments.ts';
import type { Logger } from 'pino';
import type PQueue from 'p-queue';
import type { Database } from './platform/db/open-database.ts';
import type { ApiKeyCache } from './resources/keys/api-key-cache.ts';
import type { LlmClientConfig } from './pipeline/post-process/llm-client-config.ts';
import type { RecognitionEngine } from './pipeline/recognize/recognition-engine.ts';
import type { MediaStore } from './platform/storage/media-store.ts';
import type { ExternalService } from './platform/metrics/count-external-call.ts';
import type { PipelineStage } from './platform/metrics/time-stage.ts';
import type { PredictionEvents } from './resources/predictions/prediction-events.ts';
import type { InsertPrediction } from './resources/predictions/create-prediction-inserter.ts';
import type { QueueView } from './resources/queue/create-queue-view.ts';
import type { VadWorkerPool } from './pipeline/vad/create-vad-worker-pool.ts';

/** Settings the apps pass to core (core reads `process.env` only to find programs: architecture/environment-reads.test.ts). Units are in the names. */
export interface ServiceConfig {
  /** Root folder for uploads and work files. */
  dataDir: string;
  /** Where stored downloads (the media cache) live; default the local directory `dataDir/media` (platform/storage/media-store.ts). */
  mediaStore?: MediaStore;
  /** Absolute public base of the client-compatible API, e.g. `https://host/v1/replicate/v1`. */
  apiBaseUrl: string;
  /**
   * Longest estimated wait for a worker that the synchronous OpenAI-compatible endpoint accepts,
   * seconds (OPENAI_MAX_QUEUE_WAIT_SECONDS); past it the request is refused with 429 and Retry-After.
   * Absent: no bound.
   */
  maxSyncQueueWaitSeconds?: number;
  /** Largest recording accepted, uploaded or downloaded (spec 8: 300 MiB). */
  maxMediaBytes: number;
  /** Total time allowed to download a link. */
  downloadTimeoutMs: number;
  /** Allow links to loopback/private addresses (local use and tests only). */
  allowPrivateNetwork: boolean;
  /**
   * Time allowed to check that a link still answers before another user is given its stored
   * download or transcript (resources/predictions/run/check-cache-access.ts); default 5000 ms.
   */
  linkProbeTimeoutMs?: number;
  /** MODELS_DIR: local neural models (sherpa-onnx ASR and diarization), or null. */
  modelsDir: string | null;
  /** Silero VAD ONNX model file. */
  vadModelPath: string;
  /**
   * Limits of the segment flags (pipeline/recognize/assess-segments.ts: FLAG_LOGPROB_BELOW,
   * FLAG_COMPRESSION_ABOVE, FLAG_NO_SPEECH_ABOVE) as the operator set them; an absent limit is the
   * engine's own or Whisper's default (−1, 2.4, 0.6): resolveFlagThresholds.
   */
  flagThresholds?: Partial<FlagThresholds>;
  /** Lifetime of stored downloads and transcripts, and the free-repeat window, in days (spec 2.6.1: 27). */
  cacheTtlDays: number;
  /** Price of one audio minute for the usage ledger; 0 records usage only (prices are not in the spec). */
  pricePerMinute: number;
  /** Whether an LLM endpoint is configured for post-processing (spec 2.4). */
  llmConfigured: boolean;
  /** The OpenAI-compatible chat endpoint for post-processing, or null when none is configured. */
  llm: LlmClientConfig | null;
  /** Most voices an account may keep in the voice registry (VOICES_PER_ACCOUNT); default 50 (docs/speakers.md). */
  maxVoicesPerAccount?: number;
}

/**
 * Points where a test can act in the middle of a use-case, to make a race happen every time
 * instead of by chance. Production never sets them.
 */
export interface ServiceHooks {
  /**
   * Runs when a prediction has matched the stored transcript's parameters and is about to read that
   * transcript (resources/predictions/run/produce-transcript.ts): a concurrent replacement made here is what
   * spec 7's `cache_changed` reports.
   */
  beforeCachedTranscriptRead?: (mediaId: string) => Promise<void>;
}

/** The channel a prediction came through (its cache namespace, spec 2.6.6). */
export type PredictionChannel = 'api' | 'bot' | 'portal';

/** What the prediction code reports for metrics; implementations must never throw. */
export interface PredictionMetrics {
  /** A prediction was created. */
  created(channel: PredictionChannel): void;
  /**
   * A prediction ended. `queueSeconds`: from creation to the start of its work (null when it never
   * started); `totalSeconds`: from creation to the end; `audioSeconds`: the recording's length when
   * known; `fromCache`: its transcript came from the cache of spec 2.6.
   */
  finished(outcome: {
    channel: PredictionChannel;
    status: 'succeeded' | 'failed' | 'canceled';
    errorCode: string | null;
    engine: string;
    queueSeconds: number | null;
    totalSeconds: number;
    audioSeconds: number | null;
    workSeconds: number | null;
    fromCache: boolean;
  }): void;
  /** A request was refused by a per-key rate limit (HTTP 429). */
  rateLimited?(kind: RequestKind): void;
  /**
   * One webhook delivery attempt ended: `delivered` (2xx), `retryable` (network error, timeout, 3xx,
   * 408, 429, 5xx) or `refused` (another 4xx, or a URL that may not be reached).
   */
  webhookAttempt?(event: string, outcome: 'delivered' | 'retryable' | 'refused'): void;
  /**
   * One HTTP attempt to an outside service ended (each retry is an attempt of its own):
   * `service` `llm` (post-processing chat completions) or `remote_asr` (the openai-compatible
   * recognition engine's audio transcriptions); `outcome` `ok` when the endpoint answered 2xx,
   * `failed` for any error, timeout or refused status. Counted per attempt so that a flaky endpoint
   * shows as failures even when a retry then succeeds.
   */
  externalCall?(service: ExternalService, outcome: 'ok' | 'failed'): void;
  /**
   * A stage of a prediction's work succeeded after `seconds` (wall clock; stages are listed at
   * PipelineStage). Failed stages are not reported. A stereo recording transcribed per channel
   * reports `vad` and `recognition` once per channel.
   */
  stage?(stage: PipelineStage, seconds: number): void;
  /**
   * A worker took a prediction after `waitSeconds` in the queue (creation to start), on `engine`;
   * `estimateErrorSeconds`: its start minus the estimated start its logs last said (positive: it
   * started later than said), or null when none was said (it waited less than a round of the
   * announcer: resources/queue/start-queue-announcer.ts).
   */
  queueStarted?(outcome: { engine: string; waitSeconds: number; estimateErrorSeconds: number | null }): void;
}

/** What a per-key request limit counts: reads (GET, HEAD) or writes (every other method). */
export type RequestKind = 'read' | 'write';

/** Per-key request limits: how many requests of each kind a key may make per minute. */
export interface RequestLimiter {
  /** The limit of `kind` per minute; 0 means no limit. */
  perMinute(kind: RequestKind): number;
  /**
   * Counts one request of `kind` by `apiKeyId`.
   * @returns 0 when it is allowed, else the whole seconds (≥ 1) until the key may make another.
   */
  take(kind: RequestKind, apiKeyId: string): Promise<number>;
}

/** Everything a use-case needs, built once by each app at start-up. */
export interface ServiceContext {
  database: Database;
  boss: PgBoss;
  engine: RecognitionEngine;
  /** Bounds how many recognitions run at once in this process (CPU-bound). */
  recognitionQueue: PQueue;
  /**
   * The VAD's worker threads, kept between recordings with the model loaded
   * (pipeline/vad/create-vad-worker-pool.ts); absent: each VAD pass starts a worker of its own.
   */
  vadWorkers?: VadWorkerPool;
  config: ServiceConfig;
  /**
   * Where prediction code announces `started`, `log-appended` and `ended`
   * (resources/predictions/prediction-events.ts), and the webhook worker of this process listens
   * (resources/webhooks/start-webhook-worker.ts); made by the app that builds the context.
   */
  predictionEvents: PredictionEvents;
  /**
   * Stores a new prediction with its transcribe job, in one transaction with the other creates of the
   * same moment (group commit; resources/predictions/create-prediction-inserter.ts); made by the app
   * that builds the context, one per process.
   */
  insertPrediction: InsertPrediction;
  /**
   * The fair queue's positions and time estimates of unfinished predictions, read at most once a
   * second (resources/queue/create-queue-view.ts); made by the app, one per process. Absent: no
   * `queue` member is shown.
   */
  queueView?: QueueView;
  /**
   * This process's cache of authenticated keys, kept true to revocations by a watcher on the
   * key-change channel (resources/keys/watch-api-key-changes.ts); revoking and reissuing pass it so the change
   * holds here before they return. Absent in processes that authenticate no requests (workers).
   */
  apiKeyCache?: ApiKeyCache;
  /**
   * Per-key request limits of the HTTP API (apps/api/src/http/rate-limit.ts), counted in the database
   * on PostgreSQL so they hold across API processes. Set by the app that serves requests.
   */
  requestLimiter?: RequestLimiter;
  /**
   * pg-boss ids of the transcribe workers running in this process (platform/jobs/start-transcribe-worker.ts),
   * which a create wakes at once (platform/jobs/wake-transcribe-workers.ts). Absent in API-only processes.
   */
  localTranscribeWorkers?: Set<string>;
  /**
   * The structured logger (pino; apps/api/src/logging/): stage lines of predictions, worker, queue,
   * webhook and bot events. Always present, so that nothing in the service writes to the console.
   */
  logger: Logger;
  /** Where the pipeline reports what operators count (apps/api/src/metrics/: Prometheus); absent: nothing is counted. */
  metrics?: PredictionMetrics;
  /**
   * Aborted when this process begins to stop (SIGTERM): a prediction still waiting for a
   * recognition slot then hands its job back to the queue without spending a try
   * (pipeline/run-in-recognition-slot.ts). Absent: the process never stops its work early.
   */
  stopping?: AbortSignal;
  /** Test seams (ServiceHooks); absent in production. */
  hooks?: ServiceHooks;
}
