import { AppError } from '../../platform/errors/app-error.ts';
import { buildCondenseTask, buildMapTask, buildSystemMessage, buildUserMessage } from './build-prompt-messages.ts';
import type { PromptJob } from './build-prompt-messages.ts';
import type { ChatSession } from './chat-session.ts';
import { chunkByTokens } from './chunk-by-tokens.ts';
import { completeChat } from './complete-chat.ts';
import { countTokens } from './count-tokens.ts';
import { materialBudget } from './plan-token-budget.ts';
import { SHARED_PROMPT } from './post-processing-prompts.ts';

/** Rounds of condensing notes that are still too long before the type fails. */
export const MAX_CONDENSE_ROUNDS = 3;

const TRANSCRIPT_HEADING = 'Transcript:';

/** Map step: notes of each part, all parts in parallel (bounded by the session's queue). */
async function mapParts(session: ChatSession, job: PromptJob, lines: readonly string[]): Promise<string[]> {
  const system = buildSystemMessage(job, 'timed', buildMapTask(job));
  const heading = (k: number, n: number) => `Part ${k} of ${n} of the transcript:`;
  const budget = materialBudget(session.config.contextTokens, system + buildUserMessage(job, heading(99, 99), ''), 'short');
  const parts = chunkByTokens(lines, budget);
  session.log(`${job.type}: transcript too long for one request, map-reduce over ${parts.length} parts`);
  return Promise.all(
    parts.map(
      async (part, i) =>
        `Part ${i + 1} of ${parts.length}:\n${await completeChat(session, { system, user: buildUserMessage(job, heading(i + 1, parts.length), part.join('\n')) })}`,
    ),
  );
}

/** Condenses `notes` until they fit `budget` tokens (at most MAX_CONDENSE_ROUNDS rounds). */
async function condenseNotes(session: ChatSession, job: PromptJob, notes: string, budget: number): Promise<string> {
  const system = buildSystemMessage(job, 'none', buildCondenseTask(job));
  const heading = 'Notes:';
  const groupBudget = materialBudget(session.config.contextTokens, system + buildUserMessage(job, heading, ''), 'short');
  let current = notes;
  for (let round = 1; countTokens(current) > budget; round += 1) {
    if (round > MAX_CONDENSE_ROUNDS) {
      throw new AppError(
        'post_processing_failed',
        `the notes of the long transcript did not fit the model's context after ${MAX_CONDENSE_ROUNDS} rounds of condensing`,
      );
    }
    const groups = chunkByTokens(current.split('\n'), groupBudget);
    const condensed = await Promise.all(
      groups.map((group) => completeChat(session, { system, user: buildUserMessage(job, heading, group.join('\n')) })),
    );
    const next = condensed.join('\n\n');
    if (countTokens(next) >= countTokens(current)) {
      throw new AppError('post_processing_failed', 'the notes of the long transcript did not get shorter when condensed');
    }
    current = next;
  }
  return current;
}

/**
 * A `condense` type (summary, gist, …, custom): the whole transcript in one request when it fits
 * the model's context (`config.contextTokens`, tokens counted with countTokens); otherwise
 * map-reduce — notes of each part in parallel, condensed further if still too long, then the
 * type's own task run on the notes.
 *
 * @param lines the transcript as timed lines (`[HH:MM:SS] SPEAKER_1: text`), at least one.
 * @returns the model's answer, trimmed.
 * @throws AppError `post_processing_failed` with the cause (see completeChat, materialBudget).
 */
export async function condenseTranscript(session: ChatSession, job: PromptJob, lines: readonly string[]): Promise<string> {
  const system = buildSystemMessage(job, 'timed');
  const whole = lines.join('\n');
  const budget = materialBudget(session.config.contextTokens, system + buildUserMessage(job, TRANSCRIPT_HEADING, ''), 'short');
  if (countTokens(whole) <= budget) {
    return (await completeChat(session, { system, user: buildUserMessage(job, TRANSCRIPT_HEADING, whole) })).trim();
  }
  const reduceSystem = buildSystemMessage(job, 'none');
  const reduceBudget = materialBudget(
    session.config.contextTokens,
    reduceSystem + buildUserMessage(job, SHARED_PROMPT.reduceIntro, ''),
    'short',
  );
  const notes = await condenseNotes(session, job, (await mapParts(session, job, lines)).join('\n\n'), reduceBudget);
  return (await completeChat(session, { system: reduceSystem, user: buildUserMessage(job, SHARED_PROMPT.reduceIntro, notes) })).trim();
}
