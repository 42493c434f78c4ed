import type OpenAI from 'openai';
import PQueue from 'p-queue';
import { createChatClient } from './create-chat-client.ts';
import { MAX_LLM_CONCURRENCY } from './llm-client-config.ts';
import type { LlmClientConfig } from './llm-client-config.ts';
import type { ExternalCallCounter } from '../../platform/metrics/count-external-call.ts';

/** Everything one post-processing run shares between its types: client, limits, cancellation. */
export interface ChatSession {
  client: OpenAI;
  config: LlmClientConfig;
  /** Bounds the requests in flight to `config.concurrency` (1..8); backoff waits hold no slot. */
  queue: PQueue;
  /** Aborted when the caller cancels or any type fails (spec 3: no partial success). */
  signal: AbortSignal;
  /** Requests sent so far, retries included (for progress lines and tests). */
  requests: number;
  /** Progress lines for the prediction's log, e.g. `summary: 41 230 tokens in 6 parts, map-reduce`. */
  log: (line: string) => void;
  /** Where each request attempt is counted (`ctx.metrics`); absent: not counted. */
  metrics?: ExternalCallCounter;
}

/**
 * Opens a session for one run. `config.concurrency` is clamped to 1..MAX_LLM_CONCURRENCY (8).
 * `metrics` (optional) counts each request attempt (PredictionMetrics.externalCall).
 */
export function openChatSession(
  config: LlmClientConfig,
  signal: AbortSignal,
  log: (line: string) => void = () => {},
  metrics?: ExternalCallCounter,
): ChatSession {
  const concurrency = Math.min(MAX_LLM_CONCURRENCY, Math.max(1, Math.floor(config.concurrency)));
  return { client: createChatClient(config), config, queue: new PQueue({ concurrency }), signal, requests: 0, log, metrics };
}
