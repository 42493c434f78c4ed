import { isIP } from 'node:net';
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .default('0')
  .transform((value) => value === '1' || value === 'true');

/**
 * An http(s) URL. `z.url()` alone takes `localhost:8080` (its scheme would be `localhost:`), so the
 * scheme is required first, and the message names it.
 */
const httpUrl = z
  .string()
  .regex(/^https?:\/\//i, 'must start with http:// or https:// (for example http://localhost:8080)')
  .pipe(z.url());

/** Names express's `trust proxy` takes for address ranges (proxy-addr's pre-defined subnets). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One TRUST_PROXY item: a range name, an IP address, or an address with a prefix length (CIDR). */
function isProxyAddress(item: string): boolean {
  if (PROXY_RANGE_NAMES.has(item)) return true;
  const [address = '', prefix, ...rest] = item.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * TRUST_PROXY → express's `trust proxy`: unset, empty, `0` or `false` = trust no proxy (the client
 * address is the connection's peer); a whole number N = N proxies in front; else a comma-separated
 * list of the proxies' addresses, CIDR ranges or `loopback` / `linklocal` / `uniquelocal`. `true`
 * (trust every X-Forwarded-For entry, which the client itself can write) is refused.
 */
const trustProxy = z
  .string()
  .optional()
  .transform((value, context): false | number | string[] => {
    const text = (value ?? '').trim();
    if (text === '' || text === '0' || text === 'false') return false;
    if (/^\d+$/.test(text)) return Number(text);
    const items = text.split(',').map((item) => item.trim());
    const wrong = items.find((item) => !isProxyAddress(item));
    if (wrong === undefined) return items;
    context.addIssue({
      code: 'custom',
      message:
        wrong === 'true'
          ? 'true would trust an X-Forwarded-For the client writes itself; give the number of proxies in front (e.g. 1) or their addresses (e.g. loopback or 10.0.0.0/8)'
          : `"${wrong.slice(0, 60)}" is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal; or give the number of proxies in front (e.g. 1)`,
    });
    return z.NEVER;
  });

/** Every environment variable the service reads, parsed once at start-up (t3-env style). */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Address to bind; loopback by default is safer, but containers need 0.0.0.0. */
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
    .optional(),
  /** Public root of the service as clients reach it, used for absolute URLs (replicate-compat.md 2). */
  PUBLIC_BASE_URL: httpUrl.optional(),
  ALLOW_PRIVATE_NETWORK: flag,
  MAX_MEDIA_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(300 * 1024 * 1024),
  DOWNLOAD_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(10 * 60 * 1000),
  /** Time to check that a link still answers before another user gets its stored download or transcript (spec 2.6). */
  LINK_PROBE_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
  /** Jobs taken at once by this process (downloads overlap); recognitions are bounded separately. */
  WORKER_CONCURRENCY: z.coerce.number().int().min(0).max(64).default(2),
  RECOGNITION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** A running job is retried after this long without finishing (crash safety with several workers). */
  JOB_EXPIRE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(4 * 3600),
  /** How often a running job proves it is alive, and how long a silent one is presumed dead (crash safety). */
  JOB_HEARTBEAT_MS: z.coerce.number().int().min(100).default(10_000),
  JOB_LEASE_STALE_MS: z.coerce.number().int().min(500).default(45_000),
  /** `GET /ready` answers 503 when the file system of DATA_DIR has less free space than this, bytes. */
  MIN_FREE_DISK_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(1024 * 1024 * 1024),
  /** Level of the structured logs (pino): fatal, error, warn, info, debug, trace or silent. Unset: info (silent under NODE_ENV=test). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /**
   * `npm run worker` only: serve `GET /metrics` (Prometheus) on this port. A worker has no HTTP API,
   * yet the metrics of the predictions it runs (stages, LLM and remote-ASR calls, finished counts)
   * exist only in its process. Unset: no server.
   */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * With it, `GET /metrics` (the API's and a worker's METRICS_PORT) needs `Authorization: Bearer
   * <METRICS_TOKEN>`; without it the endpoint is open, as Prometheus expects on a private network.
   * The same token in `X-Admin-Token` opens GET /v1/queue's count-only view of every key (routes/queue-routes.ts).
   */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /**
   * Request bodies: the first this-many ms are free, then every last this-many ms must average
   * UPLOAD_MIN_BYTES_PER_SECOND (apps/api/src/http/limit-body-rate.ts); a body that falls behind is
   * answered 408. At most 5 minutes.
   */
  REQUEST_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(60_000),
  /** The minimum average rate of a request body (uploads), bytes a second: 16 KiB/s = 128 kbit/s, a weak mobile uplink. */
  UPLOAD_MIN_BYTES_PER_SECOND: z.coerce
    .number()
    .int()
    .min(1024)
    .default(16 * 1024),
  /** On SIGTERM, how long running jobs may take to finish before the process stops anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  /** Longest estimated wait for a worker the synchronous OpenAI-compatible audio endpoints accept, seconds; past it: 429 with Retry-After (0: refuse whenever a job waits). */
  OPENAI_MAX_QUEUE_WAIT_SECONDS: z.coerce.number().int().min(0).default(600),
  /** Live transcription (GET /v1/realtime, docs/live.md): open sessions per key at once, in one API process. */
  LIVE_MAX_SESSIONS_PER_KEY: z.coerce.number().int().min(0).default(4),
  /** A live session's longest life, seconds (default 1 h). */
  LIVE_MAX_SESSION_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** A live session with no client message for this long is closed, seconds. */
  LIVE_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).default(60),
  /** A live session whose audio waiting for VAD and recognition exceeds this is told so and closed, seconds. */
  LIVE_MAX_BACKLOG_SECONDS: z.coerce.number().min(1).default(30),
  /** The longest turn of a live session, seconds: longer speech is cut into turns of this length. */
  LIVE_MAX_TURN_SECONDS: z.coerce.number().min(1).max(600).default(30),
  /** How often the queue looks for expired jobs and does upkeep, in seconds. */
  QUEUE_MAINTENANCE_SECONDS: z.coerce.number().int().min(1).default(60),
  /** `auto`: sherpa-onnx when a model is installed, else the remote server when ASR_BASE_URL is set, else pocketsphinx. */
  RECOGNITION_ENGINE: z.enum(['auto', 'sherpa-onnx', 'openai-compatible', 'pocketsphinx', 'fake']).default('auto'),
  /** Folder of local neural models (`npm run models -- list`); nothing is downloaded at request time. */
  MODELS_DIR: z.string().min(1).default('./models'),
  /**
   * First start without a model (RECOGNITION_ENGINE=auto, no sherpa-onnx model, no ASR_BASE_URL):
   * the service starts on PocketSphinx and installs the recommended CPU model in a background
   * process, used from the next start (docs/recognition.md, "First start"). `0`/`false`: never;
   * `1`/`true`/empty: from the official release; an http(s) URL: from that mirror of the release
   * files (offline mirrors, tests). Unset: on, except under NODE_ENV=test (tests never download).
   */
  MODELS_AUTO_INSTALL: z.union([z.enum(['0', '1', 'true', 'false', '']), httpUrl]).optional(),
  /** Comma-separated catalog names of installed sherpa-onnx models; the first is the default. */
  SHERPA_MODEL: z.string().optional(),
  SHERPA_THREADS: z.coerce.number().int().min(1).max(64).optional(),
  /** Any OpenAI-compatible transcription server (OpenAI, Groq, speaches, vLLM, whisper.cpp), base ending in /v1. */
  ASR_BASE_URL: httpUrl.optional(),
  ASR_API_KEY: z.string().default(''),
  ASR_MODEL: z.string().optional(),
  /** Per request attempt; must cover one chunk (ASR_MAX_CHUNK_SECONDS) plus the server's queueing. */
  ASR_TIMEOUT_MS: z.coerce.number().int().positive().default(300_000),
  ASR_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Requests in flight per recognition (1 for whisper.cpp's server). */
  ASR_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  ASR_MAX_REQUEST_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 1024 * 1024),
  ASR_MAX_CHUNK_SECONDS: z.coerce.number().positive().default(300),
  VAD_MODEL_PATH: z.string().optional(),
  /** Segment flags (docs/formats.md, "Flags"): low_logprob below, compression above, no_speech above. */
  /** Unset: the engine's own limit (PocketSphinx ln 0.5 on its calibrated scale), else Whisper's −1 (resolveFlagThresholds). */
  FLAG_LOGPROB_BELOW: z.coerce.number().max(0).optional(),
  FLAG_COMPRESSION_ABOVE: z.coerce.number().positive().default(2.4),
  FLAG_NO_SPEECH_ABOVE: z.coerce.number().min(0).max(1).default(0.6),
  POCKETSPHINX_BIN: z.string().optional(),
  POCKETSPHINX_MODEL_DIR: z.string().optional(),
  /** OpenAI-compatible chat endpoint for post-processing (OpenAI, vLLM, Ollama, llama.cpp server). */
  LLM_BASE_URL: httpUrl.optional(),
  LLM_API_KEY: z.string().default('none'),
  LLM_MODEL: z.string().default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** The model's context window in tokens; long transcripts are chunked to fit. */
  LLM_CONTEXT_TOKENS: z.coerce.number().int().min(1024).default(8192),
  /** Post-processing types run at once for one prediction (spec 2.4: up to 8 in parallel). */
  LLM_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(8),
  /** Telegram bot (apps/bot): runs beside the API when the token is set. */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[A-Za-z0-9_-]+$/, 'must look like 123456:ABC-DEF…')
    .optional(),
  /** A local Bot API server (lifts the 20 MB download limit to 2 GB). */
  TELEGRAM_API_ROOT: httpUrl.optional(),
  /**
   * Tries of the Bot API at the bot's start (getMe, and setWebhook in webhook mode), 1 s, 2 s, 4 s, …
   * apart: `npm run bot` exits 1 after them; `npm start` serves the API meanwhile and afterwards, and
   * keeps trying in the background (docs/bot.md, "Start-up, retries and readiness").
   */
  BOT_START_ATTEMPTS: z.coerce.number().int().min(1).max(1000).default(6),
  /** Webhook mode: the public URL Telegram posts updates to (served by this express app). */
  BOT_WEBHOOK_URL: httpUrl.optional(),
  BOT_WEBHOOK_SECRET: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}$/)
    .optional(),
  /** After a key reissue the old key keeps working this long (spec 5.3: at most 5 minutes). */
  KEY_REISSUE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(300),
  /** Lifetime of the cache and the free-repeat window (spec 2.6.1). */
  CACHE_TTL_DAYS: z.coerce.number().positive().max(3650).default(27),
  /** Most voices one account may keep in the voice registry (docs/speakers.md). */
  VOICES_PER_ACCOUNT: z.coerce.number().int().min(1).max(10000).default(50),
  /** Price per audio minute recorded in the usage ledger; 0 records usage only. */
  PRICE_PER_MINUTE: z.coerce.number().min(0).default(0),
  /** Retries of a webhook's `completed` delivery stop this long after its first attempt (docs/webhooks.md). */
  WEBHOOK_RETRY_DEADLINE_MS: z.coerce.number().int().min(0).default(180_000),
  /** Base of the webhook retry backoff in whole seconds: retry n waits base·2^(n-1) to base·2^n s. */
  WEBHOOK_RETRY_DELAY_SECONDS: z.coerce.number().int().min(1).max(60).default(2),
  /** Per API key: creates and other non-GET requests a minute, counted across API processes on PostgreSQL (0 = no limit). */
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).default(300),
  /** Per API key: GET requests a minute, counted by each API process (clients poll about 2/s per waiting prediction; 0 = no limit). */
  RATE_LIMIT_READS_PER_MINUTE: z.coerce.number().int().min(0).default(3000),
  /**
   * Per client address: failed API-key and signed-link checks allowed in a minute; past them the
   * address's checks get 429 with Retry-After, before any database query, until the minute ends
   * (counted in each API process's memory; 0 = no limit).
   */
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().min(0).default(30),
  /** Which proxies' X-Forwarded-For names the client address (the failure limit counts per address): see trustProxy above. */
  TRUST_PROXY: trustProxy,
  /** How long an authenticated API key is trusted without a database query while the key-change notification channel is down, ms (0 = no key memory). Revocations reach every process at once through LISTEN/NOTIFY; this bounds a missed one (docs/api.md). */
  KEY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Memory for the answers kept by `GET /predictions/{id}` (finished ones until evicted, unfinished ones until they change, on PostgreSQL at most 250 ms), bytes (0 = off). */
  PREDICTION_CACHE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /** How often an idle worker looks for jobs created by other processes, seconds; a job created in this process wakes its workers at once. */
  QUEUE_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(0.5),
  /** Where stored downloads live: `local` (DATA_DIR/media) or `s3` (a bucket shared by API and worker machines, docs/deployment.md). */
  MEDIA_STORE: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().min(1).optional(),
  /** Key prefix inside the bucket, e.g. `transcribe/media/`. */
  S3_PREFIX: z.string().default(''),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** S3-compatible server (MinIO, Ceph, R2…), e.g. `http://minio:9000`; unset for AWS S3. */
  S3_ENDPOINT: httpUrl.optional(),
  /** Path-style URLs (`endpoint/bucket/key`), needed by MinIO and most self-hosted servers. */
  S3_FORCE_PATH_STYLE: flag,
  /** Static credentials; unset to use the AWS default chain (environment, profile, instance role). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** A media store request is abandoned after this long without progress (retried up to 3 attempts). */
  S3_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  /** RECOGNITION_ENGINE=fake (a test double with made-up text) outside NODE_ENV=test, for load tests only. */
  ALLOW_FAKE_ENGINE: flag,
  /** How long each recognition of the fake engine takes, ms (0 = at once). */
  FAKE_ENGINE_DELAY_MS: z.coerce.number().int().min(0).default(0),
  /** Crash tests only (NODE_ENV=test): every fake recognition ends the process, by `exit` (process.exit(1)) or `throw` (an uncaught exception). */
  FAKE_ENGINE_CRASH: z.enum(['exit', 'throw']).optional(),
  NODE_ENV: z.string().optional(),
});

export type Env = z.infer<typeof envSchema>;

/** The names of every environment variable the service reads (README's configuration table lists each). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/**
 * Checks the environment without exiting.
 * @returns the parsed values, or one line per broken variable: `Invalid environment variable NAME: rule`.
 */
export function checkEnv(source: NodeJS.ProcessEnv): { env: Env; problems: [] } | { env: null; problems: string[] } {
  const result = envSchema.safeParse(source);
  if (result.success) return { env: result.data, problems: [] };
  return {
    env: null,
    problems: result.error.issues.map((issue) => `Invalid environment variable ${issue.path.join('.')}: ${issue.message}`),
  };
}

/**
 * Parses the environment; on a bad value writes the variable's name and the rule to stderr, one
 * plain line per broken variable, and exits 1 (fail fast).
 * Why plain text and not the structured logger: this runs before any logger exists, and LOG_LEVEL
 * itself may be the broken variable; the reader is an operator at a terminal or in
 * `docker compose logs`, who needs the variable's name at once; and the process ends here, so
 * no log collector has anything to correlate the line with.
 */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const checked = checkEnv(source);
  if (checked.env) return checked.env;
  process.stderr.write(`${checked.problems.join('\n')}\n`);
  process.exit(1);
}
