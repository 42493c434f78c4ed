import { APIError } from 'openai';
import { classifyHttpFailure } from '../../platform/http/classify-http-failure.ts';
import type { LlmClientConfig } from './llm-client-config.ts';

/** What a failed chat request means, in plain words (the verdict is platform/http's one classifier). */
export interface LlmFailure {
  /** True for 408, 429, 5xx (not 501/505), timeouts and connection failures; never for other 4xx. */
  retryable: boolean;
  /** Wait asked for by `retry-after-ms` / `Retry-After`, in ms, when the answer had one. */
  retryAfterMs: number | null;
  /** The cause in plain words, given the number of attempts made so far. */
  describe: (attempts: number) => string;
}

const UPSTREAM = 'the language model endpoint';

function times(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/** The upstream error text of a 400/422 (it often says why, e.g. "context length exceeded"), shortened. */
function upstreamMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  const text = typeof body?.message === 'string' ? body.message : '';
  const short = text.replace(/\s+/gu, ' ').trim().slice(0, 200);
  return short === '' ? '' : `: ${short}`;
}

function describeStatus(error: APIError & { status: number }, config: LlmClientConfig, verdict: Verdict): LlmFailure {
  const { status } = error;
  const { retryable, retryAfterMs } = verdict;
  if (status === 429) {
    return { retryable, retryAfterMs, describe: (n) => `${UPSTREAM} kept refusing with HTTP 429 Too Many Requests (${times(n)})` };
  }
  if (status === 408 || status >= 500) {
    return { retryable, retryAfterMs, describe: (n) => `${UPSTREAM} failed with HTTP ${status} (${times(n)})` };
  }
  const fixed = (text: string): LlmFailure => ({ retryable: false, retryAfterMs: null, describe: () => text });
  if (status === 401 || status === 403) return fixed(`${UPSTREAM} refused the configured API key (HTTP ${status})`);
  if (status === 404) return fixed(`${UPSTREAM} does not know the model "${config.model}" or the chat-completions path (HTTP 404)`);
  return fixed(`${UPSTREAM} rejected the request (HTTP ${status}${upstreamMessage(error)})`);
}

type Verdict = { retryable: boolean; retryAfterMs: number | null };

/**
 * Words an error thrown by `client.chat.completions.create` (openai-node error classes): HTTP
 * statuses, timeouts (`config.timeoutMs` per attempt), connection failures, and bodies that are not
 * JSON (the client throws a SyntaxError; not retried). Whether it is retryable, and the wait asked
 * for, come from classifyHttpFailure. Anything else is described generically, without internal details.
 */
export function classifyLlmFailure(error: unknown, config: LlmClientConfig): LlmFailure {
  const verdict = classifyHttpFailure(error);
  if (verdict.kind === 'timeout') {
    const seconds = config.timeoutMs / 1000;
    return { retryable: true, retryAfterMs: null, describe: (n) => `${UPSTREAM} did not answer within ${seconds} s (${times(n)})` };
  }
  if (verdict.kind === 'network') {
    return { retryable: verdict.retryable, retryAfterMs: null, describe: (n) => `${UPSTREAM} could not be reached (${times(n)})` };
  }
  if (verdict.kind === 'status' && error instanceof APIError) {
    return describeStatus(error as APIError & { status: number }, config, verdict);
  }
  if (error instanceof SyntaxError) {
    return { retryable: false, retryAfterMs: null, describe: () => `${UPSTREAM} sent a response that is not valid JSON` };
  }
  return { retryable: false, retryAfterMs: null, describe: () => `${UPSTREAM} call failed unexpectedly` };
}
