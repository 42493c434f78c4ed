import type { PostProcessType } from '../../contract/spec/post-process-types.ts';
import { SHARED_PROMPT } from './post-processing-prompts.ts';
import type { PostProcessingPrompt } from './post-processing-prompts.ts';

/** One type's prompt with everything resolved for this run. */
export interface PromptJob {
  type: PostProcessType;
  prompt: PostProcessingPrompt;
  /** From describeOutputLanguage, e.g. `Write the result in German, the language of the transcript.` */
  languageLine: string;
  /** The user's `custom_prompt` (type `custom` only), else null. */
  customPrompt: string | null;
}

/** What the material of a request is, which decides the line-format note of the system message. */
export type MaterialKind = 'timed' | 'plain' | 'none';

function lineNote(kind: MaterialKind): string[] {
  if (kind === 'timed') return [SHARED_PROMPT.timedLines];
  if (kind === 'plain') return [SHARED_PROMPT.plainLines];
  return [];
}

/**
 * A system message: the shared rules, the line-format note, the language sentence and `task`
 * (the type's own task unless another is given, e.g. the map step's), separated by blank lines.
 */
export function buildSystemMessage(job: PromptJob, kind: MaterialKind, task: string = job.prompt.task): string {
  return [SHARED_PROMPT.rules, ...lineNote(kind), job.languageLine, `Task: ${task}`].join('\n\n');
}

/** The task of the map step for this type: notes of one part that keep what the type needs. */
export function buildMapTask(job: PromptJob): string {
  return SHARED_PROMPT.mapTask
    .replace('{purpose}', job.prompt.purpose)
    .replace('{focus}', job.prompt.notesFocus ?? 'names, numbers, dates and conclusions.');
}

/** The task of condensing notes that are still too long to send at once. */
export function buildCondenseTask(job: PromptJob): string {
  return SHARED_PROMPT.condenseTask.replace('{focus}', job.prompt.notesFocus ?? 'names, numbers, dates and conclusions.');
}

/**
 * A user message: the user's instructions first (type `custom`), then `heading` and the material.
 * Example: `Transcript:\n[00:00:01] SPEAKER_1: Hello.`
 */
export function buildUserMessage(job: PromptJob, heading: string, material: string): string {
  const instructions = job.customPrompt === null ? '' : `Instructions from the user:\n${job.customPrompt}\n\n`;
  return `${instructions}${heading}\n${material}`;
}
