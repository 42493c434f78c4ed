import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import express from 'express';
import PQueue from 'p-queue';
import {
  createApiKeyCache,
  createPredictionEvents,
  createPredictionInserter,
  createQueueView,
  startQueueAnnouncer,
  createVadWorkerPool,
  createTranscribeJobHandler,
  failGivenUpPredictions,
  openDatabase,
  watchApiKeyChanges,
  openJobQueue,
  parentDeathSupport,
  prepareWorkRoot,
  startCacheSweeper,
  requeueInterruptedJobs,
  startTranscribeWorker,
  startWebhookWorker,
  WorkerStoppingError,
  type LlmClientConfig,
  type ServiceContext,
  type StopReason,
} from '@transcribe/core';
import type { Env } from './env.ts';
import { createApp, jsonBodyLimitBytes } from './http/create-app.ts';
import { createHttpServer, HEADERS_TIMEOUT_MS, type HttpServerLimits } from './http/create-http-server.ts';
import { longestBodyMs, type BodyRate } from './http/limit-body-rate.ts';
import { createPredictionBodyCache, UNFINISHED_ANSWER_TTL_MS } from './http/prediction-body-cache.ts';
import { watchPredictionChanges } from './http/watch-prediction-changes.ts';
import { relayEarlySegments } from './http/relay-early-segments.ts';
import { attachRealtimeServer } from './realtime/attach-realtime-server.ts';
import { portalLiveEntrance } from './portal/authenticate-live-socket.ts';
import { observeRealtime } from './metrics/observe-realtime.ts';
import { checkReadiness } from './http/check-readiness.ts';
import { createServiceMetrics } from './metrics/create-service-metrics.ts';
import { createServiceLogger } from './logging/create-service-logger.ts';
import type { DestinationStream, Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createRequestLimiter } from './http/rate-limit.ts';
import { startPartialUploadSweeper } from './http/sweep-partial-uploads.ts';
import { selectEngine, startModelAutoInstall, vadModelPath } from './select-engine.ts';
import { selectMediaStore } from './select-media-store.ts';
import { startChatBot, type ChatBot } from './start-chat-bot.ts';
import { readLiveServiceLock, removeServiceLock, writeServiceLock } from './service-lock.ts';
import { startAdminServer } from './start-admin-server.ts';
import { createStartUpClock, type StartUpClock, type StartUpPhase } from './time-start-up.ts';

export interface RunningService {
  /** Root URL the service listens on, e.g. `http://127.0.0.1:8080`. */
  url: string;
  ctx: ServiceContext;
  /** The Prometheus registry of this process (served at `GET /metrics` by the API; a worker serves it on METRICS_PORT). */
  metrics: Registry;
  /**
   * Stops taking requests and jobs, lets running work end, closes the database. `reason.signal`
   * (`SIGTERM`) is named in the words logged for a run interrupted at the deadline.
   */
  stop(reason?: StopReason): Promise<void>;
  /** Where the start spent its time, phase by phase (time-start-up.ts), the caller's earlier phases first. */
  startUp: StartUpPhase[];
}

/**
 * Starts the whole service in this process (spec 1): database (PGlite by default, PostgreSQL with
 * DATABASE_URL) with migrations, the pg-boss queue, the worker, and the HTTP API. Everything it
 * logs, from the first start-up line on, goes through one structured logger (`ctx.logger`).
 * @param options.logger the process's logger (the entry points make it, to log before and after
 *   this); default a new one at LOG_LEVEL, silent in tests unless LOG_LEVEL is set, writing to
 *   `options.logDestination` (tests) or stdout.
 * @param options.clock the entry point's start-up clock (its own phases, e.g. `imports`, already
 *   marked); this function marks `work folder`, `engine`, `database`, `queue`, `workers` and `http`.
 * @throws Error naming the cause when the embedded database is in use or the engine is missing.
 */
export async function startService(
  env: Env,
  options: { http?: boolean; logDestination?: DestinationStream; logger?: Logger; clock?: StartUpClock } = {},
): Promise<RunningService> {
  const clock = options.clock ?? createStartUpClock();
  // Tests read logs only where they ask for them (LOG_LEVEL and a destination); vitest sets VITEST.
  const quiet = env.NODE_ENV === 'test' || process.env.VITEST !== undefined;
  const logger =
    options.logger ?? createServiceLogger({ level: env.LOG_LEVEL ?? (quiet ? 'silent' : 'info'), destination: options.logDestination });
  const dataDir = resolve(env.DATA_DIR);
  await mkdir(dataDir, { recursive: true });
  const embedded = !env.DATABASE_URL;
  if (embedded) await refuseSecondOwner(dataDir);
  // Work files under DATA_DIR/work; those of a killed run are removed and its pocketsphinx/ffmpeg children killed.
  await prepareWorkRoot(join(dataDir, 'work'), { soleOwner: embedded, logger });
  warnUntiedChildren(logger);
  clock.mark('work folder');
  const engine = await selectEngine(env, logger);
  const mediaStore = selectMediaStore(env, logger);
  clock.mark('engine');
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, pgliteDir: join(dataDir, 'pglite') });
  clock.mark('database');
  const boss = await openJobQueue(database, {
    databaseUrl: env.DATABASE_URL,
    expireInSeconds: env.JOB_EXPIRE_SECONDS,
    maintenanceIntervalSeconds: env.QUEUE_MAINTENANCE_SECONDS,
    logger,
  });
  if (embedded) await requeueInterruptedJobs(database, boss);
  clock.mark('queue');
  // Authenticated keys are cached here and dropped as any process revokes them (LISTEN/NOTIFY); a
  // worker-only process authenticates nothing, so it keeps no cache and no subscription.
  const apiKeyCache = options.http === false ? undefined : createApiKeyCache({ ttlMs: env.KEY_CACHE_TTL_MS });
  const stopping = new AbortController();
  const keyWatch = apiKeyCache ? await watchApiKeyChanges(database, apiKeyCache) : null;
  const ctx: ServiceContext = {
    database,
    boss,
    engine,
    recognitionQueue: new PQueue({ concurrency: env.RECOGNITION_CONCURRENCY }),
    vadWorkers: createVadWorkerPool(),
    predictionEvents: createPredictionEvents(),
    insertPrediction: createPredictionInserter(database, boss),
    queueView: createQueueView(database, { engine: engine.name, slotsHint: env.WORKER_CONCURRENCY }),
    ...(apiKeyCache ? { apiKeyCache } : {}),
    stopping: stopping.signal,
    logger,
    config: {
      dataDir,
      mediaStore,
      apiBaseUrl: '',
      maxSyncQueueWaitSeconds: env.OPENAI_MAX_QUEUE_WAIT_SECONDS,
      maxMediaBytes: env.MAX_MEDIA_BYTES,
      downloadTimeoutMs: env.DOWNLOAD_TIMEOUT_MS,
      linkProbeTimeoutMs: env.LINK_PROBE_TIMEOUT_MS,
      allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK,
      vadModelPath: vadModelPath(env),
      flagThresholds: {
        ...(env.FLAG_LOGPROB_BELOW === undefined ? {} : { logprobBelow: env.FLAG_LOGPROB_BELOW }),
        compressionAbove: env.FLAG_COMPRESSION_ABOVE,
        noSpeechAbove: env.FLAG_NO_SPEECH_ABOVE,
      },
      modelsDir: resolve(env.MODELS_DIR),
      llmConfigured: Boolean(env.LLM_BASE_URL),
      llm: llmConfig(env),
      cacheTtlDays: env.CACHE_TTL_DAYS,
      maxVoicesPerAccount: env.VOICES_PER_ACCOUNT,
      pricePerMinute: env.PRICE_PER_MINUTE,
    },
  };
  const metrics = createServiceMetrics(ctx); // before the worker starts: every prediction it ends is counted
  ctx.metrics = metrics.predictions;
  const bodyRate: BodyRate = { windowMs: env.REQUEST_BODY_TIMEOUT_MS, minBytesPerSecond: env.UPLOAD_MIN_BYTES_PER_SECOND };
  await startPartialUploadSweeper(ctx, { soleOwner: embedded, bodyRate }); // data: uploads cut short by a stop
  await startWebhookWorker(ctx, {
    requeueInterrupted: embedded,
    retryDeadlineMs: env.WEBHOOK_RETRY_DEADLINE_MS,
    retryDelaySeconds: env.WEBHOOK_RETRY_DELAY_SECONDS,
  });
  const transcribeJobs = createTranscribeJobHandler(ctx); // the prediction use case the job worker runs
  await failGivenUpPredictions(ctx, transcribeJobs.failedForGood); // last tries failed by the requeue above, or expired while no worker ran
  const stopWorker =
    env.WORKER_CONCURRENCY > 0
      ? await startTranscribeWorker(
          ctx,
          {
            concurrency: env.WORKER_CONCURRENCY,
            pollingIntervalSeconds: env.QUEUE_POLL_SECONDS,
            heartbeatMs: env.JOB_HEARTBEAT_MS,
            leaseStaleMs: env.JOB_LEASE_STALE_MS,
          },
          transcribeJobs,
        )
      : null;
  const stopSweeper = env.WORKER_CONCURRENCY > 0 ? startCacheSweeper(ctx) : null;
  const stopAnnouncer = startQueueAnnouncer(ctx); // "Waiting: 3 recordings ahead, about 2 minutes" in the logs of waiting predictions
  ctx.requestLimiter = createRequestLimiter(database, {
    writesPerMinute: env.RATE_LIMIT_PER_MINUTE,
    readsPerMinute: env.RATE_LIMIT_READS_PER_MINUTE,
  });
  const adminToken = randomBytes(24).toString('base64url');
  clock.mark('workers');
  const botRouter = express.Router();
  let queueRunning = true;
  let chatBot: ChatBot | null = null;
  const readiness = () =>
    checkReadiness(ctx, {
      dataDir,
      minFreeDiskBytes: env.MIN_FREE_DISK_BYTES,
      queueRunning: () => queueRunning,
      ...(chatBot ? { bot: chatBot.readiness } : {}),
    });
  // Polls are answered from memory; every prediction write drops the answers it changed (http/watch-prediction-changes.ts).
  // On PGlite every writer is in this process and drops them before it returns, so unfinished answers need no lifetime;
  // on PostgreSQL other processes' writes arrive as notifications nobody waits for, so theirs live UNFINISHED_ANSWER_TTL_MS.
  const unfinishedTtlMs = embedded ? Infinity : UNFINISHED_ANSWER_TTL_MS;
  const predictionBodies = options.http === false ? null : createPredictionBodyCache(env.PREDICTION_CACHE_BYTES, unfinishedTtlMs);
  const predictionWatch = predictionBodies ? await watchPredictionChanges(ctx, predictionBodies) : null;
  const stopSegmentRelay = predictionBodies ? await relayEarlySegments(ctx) : null; // stream=true follows other processes' workers
  const server = predictionBodies
    ? await listen(
        createApp(ctx, {
          adminToken,
          botRouter,
          predictionBodies,
          readiness,
          metrics: metrics.registry,
          ...(env.METRICS_TOKEN ? { metricsToken: env.METRICS_TOKEN } : {}),
          authFailuresPerMinute: env.AUTH_FAILURES_PER_MINUTE,
          trustProxy: env.TRUST_PROXY,
          bodyRate,
        }),
        env.PORT,
        env.HOST,
        {
          headersTimeoutMs: HEADERS_TIMEOUT_MS,
          // A backstop only: the body rule (limit-body-rate.ts) answers first, in the API's shape.
          requestTimeoutMs: HEADERS_TIMEOUT_MS + longestBodyMs(jsonBodyLimitBytes(env.MAX_MEDIA_BYTES), bodyRate) + BACKSTOP_MARGIN_MS,
        },
      )
    : null;
  const stopRealtime = server
    ? attachRealtimeServer(
        server,
        ctx,
        {
          maxSessionsPerKey: env.LIVE_MAX_SESSIONS_PER_KEY,
          maxSessionSeconds: env.LIVE_MAX_SESSION_SECONDS,
          idleTimeoutSeconds: env.LIVE_IDLE_TIMEOUT_SECONDS,
          maxBacklogSeconds: env.LIVE_MAX_BACKLOG_SECONDS,
          maxTurnSeconds: env.LIVE_MAX_TURN_SECONDS,
        },
        observeRealtime(metrics.registry),
        [portalLiveEntrance(ctx)], // the portal's Live page, with its session cookie (docs/portal.md)
      )
    : null; // GET /v1/realtime: live transcription (docs/live.md)
  // Without the API, an embedded database's owner still serves the CLIs' admin routes on loopback.
  const adminServer = !server && embedded ? await startAdminServer(ctx, adminToken) : null;
  const port = server ? (server.address() as { port: number }).port : 0;
  const url = `http://127.0.0.1:${port}`;
  ctx.config.apiBaseUrl = `${(env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, '')}/v1/replicate/v1`;
  // PGlite has one owner: the lock is written without the API too (the bot alone, apps/bot/src/main.ts,
  // naming its admin server's port), so a second service refuses the data folder and the CLIs ask the owner.
  const adminPort = adminServer ? (adminServer.address() as { port: number }).port : port;
  if (embedded) await writeServiceLock(dataDir, { pid: process.pid, port: adminPort, adminToken });
  // Returns at once: the bot reaches the Bot API in the background (start-chat-bot.ts), `/ready` says how it goes.
  chatBot = server ? await startChatBot(ctx, env, botRouter) : null;
  clock.mark('http');
  // Only now, with the port answering: the model probe and install never delay serving, nor take CPU from the start.
  startModelAutoInstall(env, engine, logger);
  const stop = async (reason: StopReason = {}) => {
    // Stop taking work first (requests and queued jobs), then let what runs finish within the deadline.
    queueRunning = false; // `/ready` answers 503 from now on, so a load balancer sends no more requests
    await stopRealtime?.();
    const closing = server ? closeServer(server, env.SHUTDOWN_TIMEOUT_MS) : Promise.resolve();
    const workerStopped = stopWorker?.(env.SHUTDOWN_TIMEOUT_MS, reason); // stops taking jobs at once
    stopping.abort(new WorkerStoppingError(true, reason)); // runs still waiting for a recognition slot hand their jobs back
    await workerStopped;
    stopSweeper?.();
    stopAnnouncer();
    await chatBot?.stop();
    await closing;
    if (adminServer) await new Promise<void>((done) => adminServer.close(() => done()));
    await boss.stop({ graceful: true, timeout: env.SHUTDOWN_TIMEOUT_MS, wait: true });
    await keyWatch?.stop();
    await predictionWatch?.stop();
    await stopSegmentRelay?.();
    await ctx.vadWorkers?.close();
    await database.close();
    if (embedded) await removeServiceLock(dataDir);
  };
  return { url, ctx, metrics: metrics.registry, stop, startUp: clock.phases() };
}

/**
 * Says once, at start-up, when this process cannot tie its children to itself (no usable util-linux
 * `setpriv`: packages/core/src/platform/work/tie-child-to-parent.ts): a SIGKILL of it then leaves
 * ffmpeg, pocketsphinx_batch and sherpa-onnx processes running until they finish or the next start
 * kills them. A warning of component `work`; nothing else changes.
 */
function warnUntiedChildren(logger: Logger): void {
  const support = parentDeathSupport();
  if (support.available) return;
  logger.warn(
    { component: 'work', reason: support.reason },
    `child processes are not tied to this one: ${support.reason}. If this process is killed, its ffmpeg, pocketsphinx_batch and sherpa-onnx children run on until they finish or the next start ends them; install util-linux (setpriv) to have them end with it`,
  );
}

function llmConfig(env: Env): LlmClientConfig | null {
  if (!env.LLM_BASE_URL) return null;
  return {
    baseUrl: env.LLM_BASE_URL,
    apiKey: env.LLM_API_KEY,
    model: env.LLM_MODEL,
    timeoutMs: env.LLM_TIMEOUT_MS,
    maxRetries: env.LLM_MAX_RETRIES,
    contextTokens: env.LLM_CONTEXT_TOKENS,
    concurrency: env.LLM_CONCURRENCY,
  };
}

async function refuseSecondOwner(dataDir: string): Promise<void> {
  const running = await readLiveServiceLock(dataDir);
  if (running) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by the service running as process ${running.pid} ` +
        `(PGlite allows one process). Use that service, stop it first, or set DATABASE_URL to use PostgreSQL.`,
    );
  }
}

/**
 * Stops accepting connections, closes idle keep-alive ones at once, lets requests in flight end
 * (a `Prefer: wait` may hold up to 60 s) and cuts what is left after `timeoutMs`.
 */
async function closeServer(server: Server, timeoutMs: number): Promise<void> {
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), timeoutMs);
  await closed;
  clearTimeout(timer);
}

/** How far Node's own request timeout stays above the longest request the body rule lets through, ms. */
const BACKSTOP_MARGIN_MS = 60_000;

/**
 * Listens on `host:port` with the API's server (http/create-http-server.ts: Node's header and
 * request timeouts as `limits`, its refusals in problem+json). express 5's `app.listen` calls its
 * callback on errors too, which left the caller reading the address of a server that never
 * listened; a plain node:http server says what went wrong.
 * @throws Error "port N is in use; set PORT …" (EADDRINUSE), "port N needs privileges …" (EACCES),
 *   or the server's own error.
 */
function listen(app: ReturnType<typeof createApp>, port: number, host: string, limits: HttpServerLimits): Promise<Server> {
  return new Promise((done, fail) => {
    const server = createHttpServer(app, limits);
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') fail(new Error(`port ${port} is in use; set PORT to a free port, or stop what listens there`));
      else if (error.code === 'EACCES') fail(new Error(`port ${port} needs privileges this process lacks; set PORT to 1024 or above`));
      else fail(error);
    });
    server.listen(port, host, () => done(server));
  });
}
