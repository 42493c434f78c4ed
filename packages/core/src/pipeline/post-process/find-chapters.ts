import { z } from 'zod';
import { buildSystemMessage, buildUserMessage } from './build-prompt-messages.ts';
import type { PromptJob } from './build-prompt-messages.ts';
import type { ChatSession } from './chat-session.ts';
import { chunkByTokens } from './chunk-by-tokens.ts';
import { completeJson } from './complete-json.ts';
import { formatHms } from './format-transcript-lines.ts';
import type { TranscriptLine } from './format-transcript-lines.ts';
import { materialBudget } from './plan-token-budget.ts';

const CHAPTERS_SCHEMA = z
  .object({
    chapters: z.array(z.object({ segment: z.number().int(), title: z.string() }).strict()),
  })
  .strict();

type Chapter = z.infer<typeof CHAPTERS_SCHEMA>['chapters'][number];

/** Line numbers (`#n`) present in one part. */
function numbersOf(part: readonly string[]): Set<number> {
  return new Set(part.flatMap((line) => /^#(\d+) /u.exec(line)?.[1] ?? []).map(Number));
}

/** Null when every chapter names a line of this part and has a title; else the problem. */
function checkChapters(chapters: readonly Chapter[], numbers: ReadonlySet<number>): string | null {
  if (chapters.length === 0) return 'the model gave no chapters';
  const unknown = chapters.find((chapter) => !numbers.has(chapter.segment));
  if (unknown) return `the model referred to line #${unknown.segment}, which is not in the transcript part it was given`;
  if (chapters.some((chapter) => chapter.title.trim() === '')) return 'the model gave a chapter without a title';
  return null;
}

/**
 * Type `chapters` (spec 2.4 "Topic time codes"): the model picks, per part of the transcript,
 * the numbered lines where topics start (structured output `{"chapters":[{"segment","title"}]}`);
 * the service turns each line number into that segment's real start time, so no time code is
 * ever made up. Chapters are sorted, and repeats of a line or of the previous title dropped.
 *
 * @param lines numbered lines (`#n [HH:MM:SS] …`) with their real starts, at least one.
 * @returns one chapter per line: `HH:MM:SS Title` (whole seconds, rounded down), e.g. `00:01:05 Budget`.
 * @throws AppError `post_processing_failed` when an answer stays unusable (see completeJson).
 */
export async function findChapters(session: ChatSession, job: PromptJob, lines: readonly TranscriptLine[]): Promise<string> {
  const system = buildSystemMessage(job, 'timed');
  const budget = materialBudget(session.config.contextTokens, system + buildUserMessage(job, 'Transcript:', ''), 'short');
  const parts = chunkByTokens(
    lines.map((line) => line.text),
    budget,
  );
  if (parts.length > 1) session.log(`chapters: transcript sent in ${parts.length} parts`);
  const answers = await Promise.all(
    parts.map((part) => {
      const numbers = numbersOf(part);
      return completeJson(
        session,
        { system, user: buildUserMessage(job, 'Transcript:', part.join('\n')) },
        'chapters',
        CHAPTERS_SCHEMA,
        (value) => checkChapters(value.chapters, numbers),
      );
    }),
  );
  const startOf = new Map(lines.map((line) => [line.number, line.start]));
  const chapters = answers.flatMap((answer) => answer.chapters).sort((a, b) => a.segment - b.segment);
  const kept = chapters.filter(
    (chapter, i) => i === 0 || (chapter.segment !== chapters[i - 1]!.segment && chapter.title.trim() !== chapters[i - 1]!.title.trim()),
  );
  return kept.map((chapter) => `${formatHms(startOf.get(chapter.segment)!)} ${chapter.title.replace(/\s+/gu, ' ').trim()}`).join('\n');
}
