import { z } from 'zod';
import { listSrtCues, renderSrt } from '../render/render-srt.ts';
import type { Transcript } from '../../contract/output/transcript-model.ts';
import { buildSystemMessage } from './build-prompt-messages.ts';
import type { PromptJob } from './build-prompt-messages.ts';
import type { ChatSession } from './chat-session.ts';
import { completeJson } from './complete-json.ts';
import { countTokens } from './count-tokens.ts';
import { materialBudget } from './plan-token-budget.ts';
import { wrapSubtitleText } from './wrap-subtitle-text.ts';

/** Most cues per request, so a model that loses its place loses little. */
export const MAX_CUES_PER_BATCH = 40;

const CUES_SCHEMA = z.object({ cues: z.array(z.object({ id: z.number().int(), text: z.string() }).strict()) }).strict();

interface CueText {
  id: number;
  text: string;
}

/** Cues of the transcript's SRT: number (1-based), speaker prefix, and text without the prefix. */
function readCues(transcript: Transcript): { prefixes: string[]; items: CueText[] } {
  const cues = listSrtCues(transcript);
  const prefixes = cues.map((cue) => (cue.speaker !== null && cue.lines[0]!.startsWith(`${cue.speaker}: `) ? `${cue.speaker}: ` : ''));
  const items = cues.map((cue, i) => ({ id: i + 1, text: cue.lines.join(' ').slice(prefixes[i]!.length) }));
  return { prefixes, items };
}

/** Consecutive batches within `budget` tokens and MAX_CUES_PER_BATCH cues. */
function batchCues(items: readonly CueText[], budget: number): CueText[][] {
  const batches: CueText[][] = [[]];
  let used = 0;
  for (const item of items) {
    const cost = countTokens(JSON.stringify(item)) + 1;
    const batch = batches[batches.length - 1]!;
    if (batch.length > 0 && (used + cost > budget || batch.length >= MAX_CUES_PER_BATCH)) {
      batches.push([item]);
      used = cost;
    } else {
      batch.push(item);
      used += cost;
    }
  }
  return batches;
}

/** The translations that came back exactly once and non-empty, by cue id (others are missing). */
async function translateBatch(session: ChatSession, system: string, batch: readonly CueText[]): Promise<Map<number, string>> {
  const answer = await completeJson(session, { system, user: JSON.stringify({ cues: batch }) }, 'subtitle_cues', CUES_SCHEMA);
  const counts = new Map<number, number>();
  for (const cue of answer.cues) counts.set(cue.id, (counts.get(cue.id) ?? 0) + 1);
  const wanted = new Set(batch.map((cue) => cue.id));
  return new Map(
    answer.cues.filter((cue) => wanted.has(cue.id) && counts.get(cue.id) === 1 && cue.text.trim() !== '').map((cue) => [cue.id, cue.text]),
  );
}

/** Asks for one cue alone; fails clearly when even that does not come back. */
async function translateAlone(session: ChatSession, system: string, cue: CueText, total: number): Promise<string> {
  const answer = await completeJson(session, { system, user: JSON.stringify({ cues: [cue] }) }, 'subtitle_cues', CUES_SCHEMA, (value) =>
    value.cues.length === 1 && value.cues[0]!.id === cue.id && value.cues[0]!.text.trim() !== ''
      ? null
      : `the model did not return cue ${cue.id} of ${total} even when asked for it alone`,
  );
  return answer.cues[0]!.text;
}

/**
 * One batch with repair: when cues are missing (dropped, merged into a neighbour, duplicated or
 * empty), each missing cue and the cue before it (which may hold a merged line) are asked for
 * again one by one.
 */
async function translateWithRepair(
  session: ChatSession,
  system: string,
  batch: readonly CueText[],
  total: number,
): Promise<Map<number, string>> {
  const found = await translateBatch(session, system, batch);
  const missing = batch.filter((cue) => !found.has(cue.id)).map((cue) => cue.id);
  if (missing.length === 0) return found;
  const redo = batch.filter((cue) => missing.includes(cue.id) || missing.includes(cue.id + 1));
  session.log(
    `translated_subtitles: ${batch.length - missing.length} of ${batch.length} cues came back; asking again for cues ${redo.map((cue) => cue.id).join(', ')} one by one`,
  );
  const again = await Promise.all(redo.map(async (cue) => [cue.id, await translateAlone(session, system, cue, total)] as const));
  for (const [id, text] of again) found.set(id, text);
  return found;
}

/**
 * Type `translated_subtitles` (spec 2.4): the transcript's own SRT (renderSrt / listSrtCues:
 * same cue count, numbers and times, byte for byte) with each cue's text translated into the
 * target language; speaker prefixes are kept untranslated; translated text is re-wrapped by
 * wrapSubtitleText. Cues go in batches (token budget `like-input`, at most MAX_CUES_PER_BATCH) as
 * structured output `{"cues":[{"id","text"}]}`; every cue must come back (see translateWithRepair).
 *
 * @returns valid SRT text ending with `\n`; `''` when the transcript has no cues.
 * @throws AppError `post_processing_failed`, e.g. `the model did not return cue 7 of 12 even when asked for it alone (2 answers)`.
 */
export async function translateSubtitles(session: ChatSession, job: PromptJob, transcript: Transcript): Promise<string> {
  const { prefixes, items } = readCues(transcript);
  if (items.length === 0) return '';
  const system = buildSystemMessage(job, 'none');
  const budget = materialBudget(session.config.contextTokens, system + JSON.stringify({ cues: [] }), 'like-input');
  const batches = batchCues(items, budget);
  if (batches.length > 1) session.log(`translated_subtitles: ${items.length} cues in ${batches.length} batches`);
  const found = await Promise.all(batches.map((batch) => translateWithRepair(session, system, batch, items.length)));
  const texts = new Map(found.flatMap((map) => [...map]));
  const blocks = renderSrt(transcript).split('\n\n');
  return blocks
    .map((block, i) => {
      const [number, times] = block.split('\n');
      return `${number}\n${times}\n${wrapSubtitleText(prefixes[i]!, texts.get(i + 1)!).join('\n')}\n`;
    })
    .join('\n');
}
