import { z } from 'zod';
import { buildSystemMessage, buildUserMessage } from './build-prompt-messages.ts';
import type { PromptJob } from './build-prompt-messages.ts';
import type { ChatSession } from './chat-session.ts';
import { chunkByTokens } from './chunk-by-tokens.ts';
import { completeJson } from './complete-json.ts';
import { materialBudget } from './plan-token-budget.ts';

/** Longest name kept, in characters; longer answers are treated as no name. */
export const MAX_SPEAKER_NAME_CHARS = 100;

/** The answer's schema: every label present, each a name or null, nothing else. */
export function speakerNamesSchema(labels: readonly string[]) {
  const names = z.object(Object.fromEntries(labels.map((label) => [label, z.string().nullable()]))).strict();
  return z.object({ names }).strict();
}

/** Most frequent non-empty name per label over the parts' answers (ties: the earliest). */
function voteNames(labels: readonly string[], answers: readonly Record<string, string | null>[]): Record<string, string> {
  const result: Record<string, string> = {};
  for (const label of labels) {
    const counts = new Map<string, number>();
    for (const answer of answers) {
      const name = answer[label]?.replace(/\s+/gu, ' ').trim() ?? '';
      if (name !== '' && name.length <= MAX_SPEAKER_NAME_CHARS) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const best = [...counts].reduce<[string, number] | null>((top, entry) => (top === null || entry[1] > top[1] ? entry : top), null);
    if (best) result[label] = best[0];
  }
  return result;
}

/**
 * Type `speaker_names` (spec 2.3.7): structured output validated against a JSON Schema
 * (`{"names": {"SPEAKER_1": "Anna" | null, …}}`, every label required, nothing else), one request
 * per part of the transcript, votes merged per label.
 *
 * @param labels the transcript's speaker labels in order of appearance, at least one.
 * @param lines timed lines, at least one.
 * @returns a map from label to name holding only the labels whose name was inferred, in label
 *   order (`{"SPEAKER_1": "Anna"}`), or null when no name can be inferred.
 * @throws AppError `post_processing_failed` when an answer stays unusable (see completeJson).
 */
export async function inferSpeakerNames(
  session: ChatSession,
  job: PromptJob,
  labels: readonly string[],
  lines: readonly string[],
): Promise<Record<string, string> | null> {
  const system = buildSystemMessage(job, 'timed');
  const heading = `Speaker labels: ${labels.join(', ')}\n\nTranscript:`;
  const budget = materialBudget(session.config.contextTokens, system + buildUserMessage(job, heading, ''), 'short');
  const parts = chunkByTokens(lines, budget);
  if (parts.length > 1) session.log(`speaker_names: transcript sent in ${parts.length} parts`);
  const schema = speakerNamesSchema(labels);
  const answers = await Promise.all(
    parts.map((part) => completeJson(session, { system, user: buildUserMessage(job, heading, part.join('\n')) }, 'speaker_names', schema)),
  );
  const names = voteNames(
    labels,
    answers.map((answer) => answer.names as Record<string, string | null>),
  );
  return Object.keys(names).length === 0 ? null : names;
}
