import { APIError } from 'openai';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { classifyHttpFailure } from '../../../../platform/http/classify-http-failure.ts';

/** What a failed transcription request means, in words (the verdict is platform/http's one classifier). */
export interface RemoteAsrFailure {
  /** True for 408, 429, 5xx (not 501/505), timeouts and connection failures; never for other 4xx. */
  retryable: boolean;
  /** Wait asked for by `retry-after-ms` / `Retry-After`, in ms, when the answer had one. */
  retryAfterMs: number | null;
  /** The error to throw once no retry is left, given the attempts made so far. */
  toError: (attempts: number) => AppError;
}

const SERVER = 'The speech recognition server';

function times(attempts: number): string {
  return attempts === 1 ? '1 attempt' : `${attempts} attempts`;
}

/**
 * The server's own words for an error, shortened: the body's `error.message` (OpenAI, Groq, vLLM),
 * `error` string (whisper.cpp) or the client's text; '' when the body said nothing.
 */
function shortMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | string | undefined;
  const text = typeof body === 'string' ? body : typeof body?.message === 'string' ? body.message : error.message;
  const plain = text
    .replace(/^\d{3}\s+/u, '')
    .replace(/\s+/gu, ' ')
    .trim();
  return plain === 'status code (no body)' ? '' : plain.slice(0, 200);
}

function describeStatus(error: APIError & { status: number }, maxRequestBytes: number, verdict: Verdict): RemoteAsrFailure {
  const { status } = error;
  const said = shortMessage(error);
  const { retryable, retryAfterMs } = verdict;
  if (status === 429 || status === 408 || status >= 500) {
    const what = status === 429 ? 'is overloaded: it kept answering 429 Too Many Requests' : `failed with HTTP ${status}`;
    const toError = (n: number) =>
      new AppError('recognition_failed', `${SERVER} ${what} (${times(n)})${said ? `: ${said}` : ''}`, { cause: error });
    return { retryable, retryAfterMs, toError };
  }
  const hint = status === 413 ? ` (requests carry up to ${(maxRequestBytes / 2 ** 20).toFixed(1)} MiB of audio: lower that limit)` : '';
  const message = `${SERVER} refused the audio: ${status}${said ? ` ${said}` : ''}${hint}`;
  return { retryable: false, retryAfterMs: null, toError: () => new AppError('recognition_failed', message, { cause: error }) };
}

type Verdict = { retryable: boolean; retryAfterMs: number | null };

/**
 * Words an error thrown by `client.audio.transcriptions.create` (openai-node error classes); whether
 * it is retryable, and the wait asked for, come from classifyHttpFailure.
 * "Refused" (the server answered an error status) is kept apart from "unreachable" (no answer).
 * @returns for a 4xx other than 408/429: not retryable, AppError `recognition_failed`
 *   `The speech recognition server refused the audio: 400 <its message>`; for 408, 429 and 5xx:
 *   retryable (not 501/505), then `recognition_failed` naming the status and attempts; for timeouts
 *   (`timeoutMs` per attempt) and connection failures: retryable, then `recognition_unreachable`;
 *   anything else: not retryable, `recognition_failed` without internal details.
 */
export function classifyRemoteAsrFailure(error: unknown, settings: { timeoutMs: number; maxRequestBytes: number }): RemoteAsrFailure {
  const verdict = classifyHttpFailure(error);
  const unreachable = (what: string): RemoteAsrFailure => ({
    retryable: verdict.retryable,
    retryAfterMs: null,
    toError: (n) => new AppError('recognition_unreachable', `${SERVER} ${what} (${times(n)}).`, { cause: error }),
  });
  if (verdict.kind === 'timeout') return unreachable(`did not answer within ${settings.timeoutMs / 1000} s`);
  if (verdict.kind === 'network') return unreachable('could not be reached');
  if (verdict.kind === 'status' && error instanceof APIError) {
    return describeStatus(error as APIError & { status: number }, settings.maxRequestBytes, verdict);
  }
  const message =
    error instanceof SyntaxError ? `${SERVER} sent an answer that is not valid JSON.` : `${SERVER} request failed unexpectedly.`;
  return { retryable: false, retryAfterMs: null, toError: () => new AppError('recognition_failed', message, { cause: error }) };
}
