import { runPostProcessing, type LlmClientConfig, type PostProcessType, type ServiceContext, type Transcript } from '@transcribe/core';

/** One post-processing request made by a button or a default type (spec 2.4). */
export interface PostProcessRequest {
  /** The stored transcript of a finished bot prediction. */
  transcript: Transcript;
  type: PostProcessType;
  /** Spec 2.5 code for `translation` and `translated_subtitles`, else null. */
  targetLanguage: string | null;
  signal: AbortSignal;
}

/**
 * Runs one post-processing type on a transcript and resolves to its result (spec 2.4: text, or
 * a label → name map / null for `speaker_names`).
 * @throws AppError with a code reply-for-error.ts knows (e.g. `post_processing_failed`).
 */
export type PostProcessRunner = (request: PostProcessRequest) => Promise<unknown>;

/**
 * The runner of the bot: core's runPostProcessing with `llm` (default: the service's language
 * model, `ctx.config.llm`), or null when none is configured, which hides the buttons.
 */
export function selectPostProcessRunner(ctx: ServiceContext, override?: LlmClientConfig): PostProcessRunner | null {
  const llm = override ?? ctx.config.llm;
  if (!ctx.config.llmConfigured || !llm) return null;
  return async ({ transcript, type, targetLanguage, signal }) => {
    const results = await runPostProcessing({ transcript, types: [type], targetLanguage, customPrompt: null, llm, signal });
    return results[type];
  };
}
