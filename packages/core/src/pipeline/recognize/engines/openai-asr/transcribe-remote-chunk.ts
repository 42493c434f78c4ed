import type OpenAI from 'openai';
import type { TranscriptionCreateParamsNonStreaming } from 'openai/resources/audio/transcriptions';
import type PQueue from 'p-queue';
import { AppError } from '../../../../platform/errors/app-error.ts';
import { retryHttpCall } from '../../../../platform/http/retry-http-call.ts';
import { countExternalCall, type ExternalCallCounter } from '../../../../platform/metrics/count-external-call.ts';
import { MAX_RETRY_WAIT_MS } from '../../../post-process/llm-client-config.ts';
import { classifyRemoteAsrFailure } from './classify-remote-asr-failure.ts';
import type { RemoteChunk } from './plan-remote-chunks.ts';
import type { RecognizedSegment } from '../../recognition-engine.ts';
import type { WavLayout } from '../../../decode/read-wav-layout.ts';
import { sliceWavBlob } from '../../read-wav-slice.ts';
import { stitchRemoteSegments } from './stitch-remote-segments.ts';

/** What every chunk request of one recognition shares. */
export interface RemoteAsrRun {
  client: OpenAI;
  /** Bounds the requests in flight; backoff waits hold no slot. */
  queue: PQueue;
  model: string;
  /** Per attempt, ms. */
  timeoutMs: number;
  /** Retries after the first attempt (408, 429, 5xx, timeouts, connection failures). */
  maxRetries: number;
  /** First backoff delay, ms (doubled per retry, jittered). */
  retryBaseDelayMs: number;
  /** Largest WAV file per request, bytes (only named in the 413 message here). */
  maxRequestBytes: number;
  /** The whole 16 kHz mono WAV file as a file-backed Blob (`fs.openAsBlob`): chunks are lazy slices of it. */
  wav: Blob;
  layout: WavLayout;
  /** Spec 2.5 code sent as `language`, or null to let the server detect it. */
  language: string | null;
  /** Sent as `prompt` when not undefined. */
  prompt: string | undefined;
  signal: AbortSignal;
  /** Counts each request attempt (`remote_asr`, ok or failed); absent: not counted. */
  metrics?: ExternalCallCounter;
}

/** The request of one attempt; its file streams the chunk's bytes from the disk as the request is sent. */
function toParams(run: RemoteAsrRun, chunk: RemoteChunk): TranscriptionCreateParamsNonStreaming<'verbose_json'> {
  const name = `chunk-${chunk.start.toFixed(3)}.wav`;
  return {
    file: new File([sliceWavBlob(run.wav, run.layout, chunk.start, chunk.end)], name, { type: 'audio/wav' }),
    model: run.model,
    response_format: 'verbose_json' as const,
    timestamp_granularities: ['segment', 'word'],
    ...(run.language === null ? {} : { language: run.language }),
    ...(run.prompt === undefined ? {} : { prompt: run.prompt }),
  };
}

/**
 * Sends one chunk (a lazy slice of the WAV file: its bytes are read from the disk while the request
 * body is written, so a chunk in flight holds no copy of its audio, and a retry sends the same bytes) to
 * `POST {baseUrl}/audio/transcriptions` as `verbose_json` with segment and word timestamps, and
 * returns its segments in recording time (stitchRemoteSegments). Retries through the one retry
 * policy (platform/http retryHttpCall): 408, 429, 5xx (not 501/505), timeouts and connection
 * failures, at most `run.maxRetries` times, waiting `Retry-After` (over 30 s: gives up) or an
 * exponential backoff from `run.retryBaseDelayMs` (jittered, at most 8 s); other 4xx are not retried. Each attempt is counted in `run.metrics`.
 * @throws AppError `recognition_failed` (refused, failed status, bad answer) or
 *   `recognition_unreachable` (timeouts, connection failures) — see classifyRemoteAsrFailure;
 *   `run.signal.reason` when aborted.
 */
export async function transcribeRemoteChunk(run: RemoteAsrRun, chunk: RemoteChunk): Promise<RecognizedSegment[]> {
  const { signal } = run;
  let attempts = 0;
  try {
    return await retryHttpCall(
      async (attempt) => {
        attempts = attempt;
        const answer = await run.queue.add(
          async () => {
            return countExternalCall(
              run.metrics,
              'remote_asr',
              run.client.audio.transcriptions.create(toParams(run, chunk), { signal, timeout: run.timeoutMs, maxRetries: 0 }),
              signal,
            );
          },
          { signal, throwOnTimeout: true },
        );
        return stitchRemoteSegments(answer, chunk, run.language);
      },
      { retries: run.maxRetries, baseDelayMs: run.retryBaseDelayMs, jitter: true, maxRetryAfterMs: MAX_RETRY_WAIT_MS, signal },
    );
  } catch (error) {
    signal.throwIfAborted();
    if (error instanceof AppError) throw error;
    const failure = classifyRemoteAsrFailure(error, run);
    const asked = failure.retryAfterMs;
    if (failure.retryable && attempts <= run.maxRetries && asked !== null && asked > MAX_RETRY_WAIT_MS) {
      const last = failure.toError(attempts);
      const wait = Math.ceil(asked / 1000);
      throw new AppError(last.code, `${last.message}; it asked to wait ${wait} s, longer than the service waits`, { cause: error });
    }
    throw failure.toError(attempts);
  }
}
