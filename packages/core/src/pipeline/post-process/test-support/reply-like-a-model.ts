/**
 * Scripted answers for the local chat server: which type and step a request belongs to (from the
 * prompt texts, which are data), and a well-formed answer for it, as a model would give.
 */
import { POST_PROCESS_TYPE_NAMES } from '../../../contract/spec/post-process-types.ts';
import type { PostProcessType } from '../../../contract/spec/post-process-types.ts';
import { POST_PROCESSING_PROMPTS, SHARED_PROMPT } from '../post-processing-prompts.ts';
import type { ChatReply, RecordedChatRequest } from './start-chat-server.ts';

/** `whole`: the type's own task (also each part of transform types and per-part structured types). */
export type RequestStep = 'whole' | 'map' | 'condense' | 'reduce';

export interface RequestIdentity {
  type: PostProcessType;
  step: RequestStep;
}

function mapTaskOf(type: PostProcessType): string {
  const prompt = POST_PROCESSING_PROMPTS[type];
  return SHARED_PROMPT.mapTask.replace('{purpose}', prompt.purpose).replace('{focus}', prompt.notesFocus ?? '');
}

function condenseTaskOf(type: PostProcessType): string {
  return SHARED_PROMPT.condenseTask.replace('{focus}', POST_PROCESSING_PROMPTS[type].notesFocus ?? '');
}

/** The type and step of a recorded request; throws when it matches no prompt. */
export function identifyRequest(request: RecordedChatRequest): RequestIdentity {
  for (const type of POST_PROCESS_TYPE_NAMES) {
    if (request.system.includes(`Task: ${POST_PROCESSING_PROMPTS[type].task}`)) {
      return { type, step: request.user.includes(SHARED_PROMPT.reduceIntro) ? 'reduce' : 'whole' };
    }
    if (request.system.includes(`Task: ${mapTaskOf(type)}`)) return { type, step: 'map' };
    if (request.system.includes(`Task: ${condenseTaskOf(type)}`)) return { type, step: 'condense' };
  }
  throw new Error(`request matches no prompt: ${request.system.slice(0, 200)}`);
}

/** The `#n` numbers of the lines in a chapters request. */
export function lineNumbersIn(user: string): number[] {
  return [...user.matchAll(/^#(\d+) /gmu)].map((match) => Number(match[1]));
}

/** The cues of a translated_subtitles request. */
export function cuesIn(user: string): { id: number; text: string }[] {
  return (JSON.parse(user) as { cues: { id: number; text: string }[] }).cues;
}

/** The speaker labels listed in a speaker_names request. */
export function labelsIn(user: string): string[] {
  return /^Speaker labels: (.*)$/mu.exec(user)![1]!.split(', ');
}

/**
 * A well-formed answer: `RESULT <type> (<step>)` for text steps; for chapters one chapter at the
 * first line given; for subtitles every cue as `[fr] <text>`; for speaker_names `Anna` for the
 * first label and null for the others.
 */
export function replyLikeAModel(request: RecordedChatRequest): ChatReply {
  const { type, step } = identifyRequest(request);
  if (step !== 'whole' || POST_PROCESSING_PROMPTS[type].method === 'condense' || POST_PROCESSING_PROMPTS[type].method === 'transform') {
    return { content: `RESULT ${type} (${step})` };
  }
  if (type === 'chapters') {
    return { content: JSON.stringify({ chapters: [{ segment: lineNumbersIn(request.user)[0], title: 'Opening' }] }) };
  }
  if (type === 'translated_subtitles') {
    return { content: JSON.stringify({ cues: cuesIn(request.user).map((cue) => ({ id: cue.id, text: `[fr] ${cue.text}` })) }) };
  }
  const labels = labelsIn(request.user);
  return { content: JSON.stringify({ names: Object.fromEntries(labels.map((label, i) => [label, i === 0 ? 'Anna' : null])) }) };
}
