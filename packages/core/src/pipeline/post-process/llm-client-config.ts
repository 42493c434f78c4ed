/**
 * Settings of the OpenAI-compatible chat endpoint used for post-processing (spec 2.4). The apps
 * build it from `LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL` and friends (core reads no setting from
 * `process.env`). Units are in the names.
 */
export interface LlmClientConfig {
  /** Base address of the API, the part before `/chat/completions`, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Bearer token; local servers (Ollama, llama.cpp) accept any value, `''` included. */
  apiKey: string;
  /** Model name as the endpoint knows it, e.g. `gpt-4o-mini`, `qwen2.5:7b-instruct`. */
  model: string;
  /** Time allowed for one request (one attempt), in ms. */
  timeoutMs: number;
  /** Retries after the first attempt on 408/429/5xx, timeouts and connection failures. */
  maxRetries: number;
  /** The model's context window in tokens (prompt and answer together). */
  contextTokens: number;
  /** Most requests in flight at once, 1..8 (spec 2.4: up to 8 types run in parallel). */
  concurrency: number;
  /** First backoff delay in ms, doubled on each retry (jittered); 500 when absent. */
  retryBaseDelayMs?: number;
}

/** Spec 2.4: "Up to 8 different types run in parallel". */
export const MAX_LLM_CONCURRENCY = 8;

/** Default first backoff delay, in ms. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 500;

/** Longest wait a `Retry-After` may ask for before the service gives up instead, in ms. */
export const MAX_RETRY_WAIT_MS = 30_000;
