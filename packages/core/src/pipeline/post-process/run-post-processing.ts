import { setMaxListeners } from 'node:events';
import { AppError } from '../../platform/errors/app-error.ts';
import type { PostProcessType } from '../../contract/spec/post-process-types.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import type { PromptJob } from './build-prompt-messages.ts';
import { openChatSession } from './chat-session.ts';
import { describeOutputLanguage } from './describe-output-language.ts';
import { formatTranscriptLines } from './format-transcript-lines.ts';
import type { LlmClientConfig } from './llm-client-config.ts';
import type { ExternalCallCounter } from '../../platform/metrics/count-external-call.ts';
import { POST_PROCESSING_PROMPTS } from './post-processing-prompts.ts';
import { runPostProcessType } from './run-post-process-type.ts';

export interface PostProcessingRequest {
  transcript: Transcript;
  /** Requested types, unique, in request order (validated by contract/validation/post-process-schema.ts, spec 2.2). */
  types: readonly PostProcessType[];
  /** Spec 2.5 code or English name; needed by translation and translated_subtitles. */
  targetLanguage: string | null;
  /** The user's instructions; needed by custom. */
  customPrompt: string | null;
  llm: LlmClientConfig;
  /** Cancels the whole run; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Progress lines for the prediction's log. */
  onProgress?: (line: string) => void;
  /** Counts each request attempt to the endpoint (`ctx.metrics`); absent: not counted. */
  metrics?: ExternalCallCounter;
}

/** Spec 2.3.6: no speech → every text result `''`, speaker_names `{}`, and no request at all. */
function noSpeechResults(types: readonly PostProcessType[]): Record<string, unknown> {
  return Object.fromEntries(types.map((type) => [type, type === 'speaker_names' ? {} : '']));
}

function prepareJob(type: PostProcessType, request: PostProcessingRequest): PromptJob {
  const prompt = POST_PROCESSING_PROMPTS[type];
  if (type === 'custom' && (request.customPrompt ?? '').trim() === '') {
    throw new AppError('invalid_input', 'custom_prompt is required when post_process contains custom.', { param: 'custom_prompt' });
  }
  const languageLine = describeOutputLanguage(prompt.language, request.transcript.language, request.targetLanguage);
  return { type, prompt, languageLine, customPrompt: type === 'custom' ? request.customPrompt : null };
}

function failureOf(type: PostProcessType, error: unknown): unknown {
  if (!(error instanceof AppError) || error.code !== 'post_processing_failed') return error;
  return new AppError('post_processing_failed', `Post-processing "${type}" failed: ${error.message}.`, { cause: error });
}

/**
 * Runs the requested post-processing types on a transcript (spec 2.4) through an OpenAI-compatible
 * chat endpoint: all types at once, at most `llm.concurrency` (≤ 8) requests in flight. All or
 * nothing (spec 3): the first failing type aborts the others and the run throws; no partial result.
 * No speech (spec 2.3.6): `''` for every text type, `{}` for speaker_names, no request.
 *
 * @returns results keyed by type in request order: strings, except speaker_names (label → name
 *   object, or null when no name can be inferred).
 * @throws AppError `post_processing_failed`, message naming the type and the cause, e.g.
 *   `Post-processing "summary" failed: the language model endpoint failed with HTTP 500 (3 attempts).`
 * @throws AppError `invalid_input` when target_language / custom_prompt is missing for a type needing it.
 * @throws the signal's reason when `request.signal` aborts.
 */
export async function runPostProcessing(request: PostProcessingRequest): Promise<Record<string, unknown>> {
  const { types, transcript } = request;
  request.signal?.throwIfAborted();
  if (formatTranscriptLines(transcript, 'plain').length === 0) return noSpeechResults(types);
  const jobs = types.map((type) => prepareJob(type, request));
  if (jobs.length === 0) return {};
  const log = request.onProgress ?? (() => {});
  const controller = new AbortController();
  setMaxListeners(0, controller.signal); // every request in flight listens to it
  const stop = () => controller.abort(request.signal?.reason);
  request.signal?.addEventListener('abort', stop, { once: true });
  const session = openChatSession(request.llm, controller.signal, log, request.metrics);
  const startedAt = Date.now();
  let failure: unknown = null;
  log(`post-processing ${types.join(', ')} with model ${request.llm.model}`);
  try {
    const results = await Promise.all(
      jobs
        .map(async (job) => {
          try {
            const result = await runPostProcessType(session, job, transcript);
            log(`${job.type}: done after ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
            return [job.type, result] as const;
          } catch (error) {
            failure ??= controller.signal.aborted ? null : failureOf(job.type, error);
            controller.abort();
            throw error;
          }
        })
        .map((promise) => promise.catch(() => null)),
    );
    request.signal?.throwIfAborted();
    if (failure !== null) throw failure;
    log(`post-processing finished: ${session.requests} requests in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    return Object.fromEntries(results.filter((entry) => entry !== null));
  } finally {
    request.signal?.removeEventListener('abort', stop);
  }
}
