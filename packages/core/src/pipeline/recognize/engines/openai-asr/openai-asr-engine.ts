import { setMaxListeners } from 'node:events';
import { openAsBlob } from 'node:fs';
import OpenAI from 'openai';
import PQueue from 'p-queue';
import { createOutboundFetch } from '../../../../platform/http/create-outbound-fetch.ts';
import { planRemoteChunks, type PlanRemoteChunksOptions, type RemoteChunk } from './plan-remote-chunks.ts';
import type { RecognitionEngine, RecognitionRequest, RecognizedSegment } from '../../recognition-engine.ts';
import { assertPcm16kMono, readWavLayout } from '../../../decode/read-wav-layout.ts';
import { transcribeRemoteChunk, type RemoteAsrRun } from './transcribe-remote-chunk.ts';

export interface OpenAiAsrOptions {
  /** Base address before `/audio/transcriptions`, e.g. `https://api.openai.com/v1`, `http://gpu-box:8000/v1`. */
  baseUrl: string;
  /** Bearer token; servers without authentication accept any value, `''` included. */
  apiKey: string;
  /** Model name as the server knows it, e.g. `whisper-1`, `whisper-large-v3`, `Systran/faster-whisper-large-v3`. */
  model: string;
  /** Time allowed for one request (one attempt), ms; must cover transcribing the longest chunk. */
  timeoutMs: number;
  /** Retries after the first attempt on 408, 429, 5xx, timeouts and connection failures. */
  maxRetries: number;
  /** Most requests in flight at once (at least 1). */
  concurrency: number;
  /** Largest WAV file per request, bytes (default 24 MiB, under OpenAI's 25 MB; 16 kHz WAV ≈ 32 000 bytes/s). */
  maxRequestBytes?: number;
  /** Longest chunk per request, seconds (default 300). */
  maxChunkSeconds?: number;
  /** First backoff delay between retries, ms (default 500, doubled per retry). */
  retryBaseDelayMs?: number;
}

/** 24 MiB: under the 25 MB upload limit of OpenAI (Groq's free tier allows less; lower it there). */
export const DEFAULT_MAX_REQUEST_BYTES = 24 * 1024 * 1024;
/** Five minutes: long enough for context, short enough for parallel requests and timeouts. */
export const DEFAULT_MAX_CHUNK_SECONDS = 300;

/**
 * Chunks of a `multilingual` request without `language` (spec 2.2): one utterance each, so the
 * server identifies the language of each. At most 30 s (Whisper identifies a language from the
 * first 30 s of a request) and joined only across pauses up to 1 s (as sherpa-onnx's utterances,
 * plan-utterances.ts), so a change of language at a pause starts a new request.
 */
export const MULTILINGUAL_CHUNK = { maxChunkSeconds: 30, maxPauseSeconds: 1 } as const;

/**
 * The chunk limits of one request: the engine's own (`maxChunkSeconds`, default 300 s, one
 * language per chunk), or with `multilingual` true and `language` null the tighter
 * MULTILINGUAL_CHUNK (never longer than the engine's own limit). With `language` set,
 * `multilingual` changes nothing: the server transcribes every chunk in that language.
 */
export function remoteChunkLimits(
  settings: PlanRemoteChunksOptions,
  request: Pick<RecognitionRequest, 'language' | 'multilingual'>,
): PlanRemoteChunksOptions {
  if (request.multilingual !== true || request.language !== null) return settings;
  return {
    ...settings,
    maxChunkSeconds: Math.min(settings.maxChunkSeconds, MULTILINGUAL_CHUNK.maxChunkSeconds),
    maxPauseSeconds: Math.min(settings.maxPauseSeconds ?? Infinity, MULTILINGUAL_CHUNK.maxPauseSeconds),
  };
}

/**
 * The `prompt` field sent with every chunk: the request's `prompt` (spec 2.2) followed by its
 * `hotwords` joined with `, `, e.g. `Team meeting. Kubernetes, Grafana`; undefined when both are empty.
 * Whisper reads the prompt as preceding text (it keeps its last 224 tokens), so the hotwords go last.
 */
export function buildRemotePrompt(prompt: string | null, hotwords: readonly string[]): string | undefined {
  const parts = [prompt?.trim() ?? '', hotwords.filter((word) => word.trim() !== '').join(', ')].filter((part) => part !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

/**
 * Recognition on any server speaking OpenAI's `POST /v1/audio/transcriptions` (OpenAI, Groq,
 * speaches / faster-whisper-server, vLLM, whisper.cpp's server) through the `openai` client.
 * The speech is cut at VAD pauses into chunks (planRemoteChunks: each a WAV of at most
 * `maxRequestBytes` and `maxChunkSeconds`, streamed from the WAV file as it is sent, never held in
 * memory), sent `concurrency` at a time with `timeoutMs` per attempt and `maxRetries` retries,
 * and stitched back in recording time. `language` is sent when not null (else the server detects
 * it and each segment carries its chunk's answer as a spec 2.5 code); with `multilingual` true and
 * `language` null the chunks are single utterances (remoteChunkLimits), so each is identified on
 * its own. Prompt and hotwords go into `prompt` (buildRemotePrompt). Progress is reported
 * as chunks finish.
 * @throws RangeError when the limits leave less than 1 s per chunk.
 * @throws from recognize: AppError `recognition_failed` (server refused the audio or kept failing),
 *   `recognition_unreachable` (timeouts, connection failures after retries), `media_unreadable`;
 *   `signal.reason` when aborted (in-flight requests are cancelled).
 */
export function createOpenAiAsrEngine(options: OpenAiAsrOptions): RecognitionEngine {
  const settings = {
    ...options,
    maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    maxChunkSeconds: options.maxChunkSeconds ?? DEFAULT_MAX_CHUNK_SECONDS,
    retryBaseDelayMs: options.retryBaseDelayMs ?? 500,
    concurrency: Math.max(1, Math.floor(options.concurrency)),
  };
  planRemoteChunks([], 0, settings); // fail fast on limits that cannot work
  const client = new OpenAI({
    baseURL: options.baseUrl,
    apiKey: options.apiKey === '' ? 'unused' : options.apiKey,
    organization: null,
    project: null,
    timeout: options.timeoutMs,
    maxRetries: 0, // transcribeRemoteChunk retries through the one retry policy (retryHttpCall)
    fetch: createOutboundFetch(), // the outbound agent; the endpoint is the operator's: not SSRF-checked
  });
  return {
    name: 'openai-compatible',
    languages: 'any',
    defaultLanguage: 'en',
    identifiesLanguages: true, // verbose_json carries each request's detected `language`
    nativeHints: () => ({ prompt: true, hotwords: true }), // both go into Whisper's prompt (buildRemotePrompt)
    recognize: (request) => recognizeRemotely({ ...settings, client }, request),
  };
}

type Settings = Required<OpenAiAsrOptions> & { client: OpenAI };

async function recognizeRemotely(settings: Settings, request: RecognitionRequest): Promise<RecognizedSegment[]> {
  request.signal?.throwIfAborted();
  const chunks = planRemoteChunks(request.speech, request.durationSeconds, remoteChunkLimits(settings, request));
  if (chunks.length === 0) return [];
  const layout = await readWavLayout(request.wavPath);
  assertPcm16kMono(layout, request.wavPath);
  const abort = new AbortController();
  const signal = request.signal ? AbortSignal.any([request.signal, abort.signal]) : abort.signal;
  setMaxListeners(10 + 3 * chunks.length, signal); // each waiting or running chunk listens
  const run: RemoteAsrRun = {
    ...settings,
    queue: new PQueue({ concurrency: settings.concurrency }),
    wav: await openAsBlob(request.wavPath),
    layout,
    language: request.language,
    prompt: buildRemotePrompt(request.prompt, request.hotwords),
    signal,
    metrics: request.metrics,
  };
  const seconds = (chunk: RemoteChunk) => chunk.end - chunk.start;
  const total = chunks.reduce((sum, chunk) => sum + seconds(chunk), 0);
  let done = 0;
  const results = chunks.map(async (chunk, index) => {
    try {
      const segments = await transcribeRemoteChunk(run, chunk);
      request.onUtterance?.({ index, count: chunks.length, segments });
      request.onProgress?.(Math.min(1, (done += seconds(chunk)) / total));
      return segments;
    } catch (error) {
      abort.abort(error); // one failed chunk stops the others
      throw error;
    }
  });
  return (await Promise.all(results)).flat();
}
