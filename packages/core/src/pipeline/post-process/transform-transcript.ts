import { buildSystemMessage, buildUserMessage } from './build-prompt-messages.ts';
import type { PromptJob } from './build-prompt-messages.ts';
import type { ChatSession } from './chat-session.ts';
import { chunkByTokens } from './chunk-by-tokens.ts';
import { completeChat } from './complete-chat.ts';
import { materialBudget } from './plan-token-budget.ts';

/**
 * A `transform` type (clean_up, translation): the transcript as plain lines (`SPEAKER_1: text`)
 * in parts that leave room for an answer up to twice as long (`like-input` budget of
 * `config.contextTokens`), all parts in parallel through the session's queue, answers joined in
 * order with a line break. A short transcript is one part, one request.
 *
 * @param lines plain lines, at least one.
 * @returns the joined answers, each trimmed.
 * @throws AppError `post_processing_failed` with the cause (see completeChat).
 */
export async function transformTranscript(session: ChatSession, job: PromptJob, lines: readonly string[]): Promise<string> {
  const system = buildSystemMessage(job, 'plain');
  const heading = (k: number, n: number) => (n === 1 ? 'Transcript:' : `Transcript, part ${k} of ${n}:`);
  const budget = materialBudget(session.config.contextTokens, system + buildUserMessage(job, heading(99, 99), ''), 'like-input');
  const parts = chunkByTokens(lines, budget);
  if (parts.length > 1) session.log(`${job.type}: transcript sent in ${parts.length} parts`);
  const answers = await Promise.all(
    parts.map((part, i) => completeChat(session, { system, user: buildUserMessage(job, heading(i + 1, parts.length), part.join('\n')) })),
  );
  return answers.map((answer) => answer.trim()).join('\n');
}
