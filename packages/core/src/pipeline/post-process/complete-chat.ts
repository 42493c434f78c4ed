import type { ChatCompletion, ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { AppError } from '../../platform/errors/app-error.ts';
import { retryHttpCall } from '../../platform/http/retry-http-call.ts';
import { countExternalCall } from '../../platform/metrics/count-external-call.ts';
import type { ChatSession } from './chat-session.ts';
import { classifyLlmFailure } from './classify-llm-failure.ts';
import { DEFAULT_RETRY_BASE_DELAY_MS, MAX_RETRY_WAIT_MS } from './llm-client-config.ts';

/** One chat request: a system message (rules and task) and a user message (the material). */
export interface ChatRequest {
  system: string;
  user: string;
  /** Structured output: the answer must be JSON following this JSON Schema (`response_format`). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
}

function toParams(request: ChatRequest, model: string): ChatCompletionCreateParamsNonStreaming {
  const params: ChatCompletionCreateParamsNonStreaming = {
    model,
    messages: [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ],
  };
  if (request.jsonSchema) {
    params.response_format = { type: 'json_schema', json_schema: { ...request.jsonSchema, strict: true } };
  }
  return params;
}

function fail(cause: string): never {
  throw new AppError('post_processing_failed', cause);
}

/** The answer text of a completion, or a plain-words AppError when there is none to use. */
export function readAnswer(completion: unknown): string {
  const choice = (completion as Partial<ChatCompletion> | null)?.choices?.[0];
  if (typeof completion !== 'object' || !choice || typeof choice !== 'object') {
    fail('the language model endpoint sent something that is not a chat completion');
  }
  if (choice.finish_reason === 'length') fail("the model's answer was cut off at its output limit");
  if (choice.finish_reason === 'content_filter') fail("the endpoint's content filter withheld the model's answer");
  const content = choice.message?.content;
  if (typeof choice.message?.refusal === 'string' && choice.message.refusal !== '') fail('the model declined to answer');
  if (typeof content !== 'string' || content.trim() === '') fail('the model returned an empty answer');
  return content;
}

/**
 * Sends one chat-completions request through the session's queue and returns the answer text.
 * Retries through the one retry policy (platform/http retryHttpCall): 408, 429, 5xx (not 501/505),
 * timeouts (`config.timeoutMs` per attempt) and connection failures, at most `config.maxRetries`
 * times, waiting `Retry-After` when given (over 30 s: gives up) or an exponential backoff from
 * `config.retryBaseDelayMs` (500 ms, jittered, at most 8 s); other 4xx are not retried.
 * Each attempt is counted in `session.metrics` (`llm`, ok or failed).
 *
 * @throws AppError `post_processing_failed` whose message is the cause in plain words, e.g.
 *   `the language model endpoint failed with HTTP 500 (3 attempts)`.
 * @throws the abort reason when `session.signal` aborts.
 */
export async function completeChat(session: ChatSession, request: ChatRequest): Promise<string> {
  const { config, signal } = session;
  const params = toParams(request, config.model);
  let attempts = 0;
  let completion: unknown;
  try {
    completion = await retryHttpCall(
      (attempt) => {
        attempts = attempt;
        return session.queue.add(
          () => {
            session.requests += 1;
            return countExternalCall(
              session.metrics,
              'llm',
              session.client.chat.completions.create(params, { signal, timeout: config.timeoutMs, maxRetries: 0 }),
              signal,
            );
          },
          { signal, throwOnTimeout: true },
        );
      },
      {
        retries: config.maxRetries,
        baseDelayMs: config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
        jitter: true,
        maxRetryAfterMs: MAX_RETRY_WAIT_MS,
        signal,
      },
    );
  } catch (error) {
    signal.throwIfAborted();
    if (error instanceof AppError) throw error;
    const failure = classifyLlmFailure(error, config);
    const asked = failure.retryAfterMs;
    if (failure.retryable && attempts <= config.maxRetries && asked !== null && asked > MAX_RETRY_WAIT_MS) {
      fail(`${failure.describe(attempts)}; it asked to wait ${Math.ceil(asked / 1000)} s`);
    }
    fail(failure.describe(attempts));
  }
  return readAnswer(completion);
}
