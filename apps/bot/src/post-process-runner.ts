import type { PostProcessType, ServiceContext, Transcript } from '@transcribe/core';

/** One post-processing request made by a button under a transcript (spec 2.4). */
export interface PostProcessRequest {
  /** The stored transcript of a finished bot prediction. */
  transcript: Transcript;
  type: PostProcessType;
  /** Spec 2.5 code for `translation` and `translated_subtitles`, else null. */
  targetLanguage: string | null;
  signal: AbortSignal;
}

/**
 * Runs one post-processing type on a transcript with the configured language model and resolves
 * to its result (spec 2.4: text, or a label → name map / null for `speaker_names`).
 * @throws AppError with a code reply-for-error.ts knows (e.g. `upstream_unreachable`).
 */
export type PostProcessRunner = (request: PostProcessRequest) => Promise<unknown>;

/**
 * The runner the bot uses: `custom` when given, otherwise none. Buttons appear only when the
 * service has a language model (`ctx.config.llmConfigured`, spec 2.4) and a runner exists.
 */
export function selectPostProcessRunner(ctx: ServiceContext, custom: PostProcessRunner | undefined): PostProcessRunner | null {
  if (!ctx.config.llmConfigured) return null;
  return custom ?? null;
}
