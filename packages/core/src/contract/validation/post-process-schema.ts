/** Spec 2.2 / 2.4 / 4.5 rule 1 / 8 `post_process`: the list of post-processing types to run. */
import { z } from 'zod';
import {
  INTERNAL_POST_PROCESS_NAMES,
  isPostProcessType,
  MAX_POST_PROCESS_TYPES,
  OUTPUT_FORMAT_LOOKALIKES,
  POST_PROCESS_TYPE_NAMES,
  type PostProcessType,
} from '../spec/post-process-types.ts';
import { describeValue } from './invalid-input.ts';

const VALID_TYPES = `valid types: ${POST_PROCESS_TYPE_NAMES.join(', ')}`;

/**
 * The zod schema of `post_process`.
 *
 * - absent or null → null (plain output, spec 2.3.1);
 * - a list (possibly empty, spec 2.3.2) of at most 8 unique strings, each exactly one of the 18
 *   types of spec 2.4 (case-sensitive) → the list, order kept.
 * Checked in this order, the first broken rule being the issue reported: is a list; every item is a
 * string (the item schema); then one refinement: at most 8 items; each item is not an internal name
 * (output formats get a hint to use output_format) and is a known type; no repeats. The count and
 * the names are checked by that refinement rather than by `.max()` and z.enum, whose issues zod
 * would order differently (zod checks an array's size before its items); the JSON Schema still
 * carries `maxItems`, `uniqueItems` and the items' `enum` (`.meta`, from the same constants).
 *
 * @returns a schema whose output is the types or null; its issues carry the 422 details.
 */
export function postProcessSchema() {
  const item = z
    .string({
      error: (issue) =>
        `post_process must contain only type names as strings; item ${itemNumber(issue.path)} is ${describeValue(issue.input)}.`,
    })
    .meta({ enum: [...POST_PROCESS_TYPE_NAMES] });
  return z
    .array(item, { error: (issue) => notAList(issue.input) })
    .superRefine((names, ctx) => {
      const problem = countProblem(names) ?? names.map(typeNameProblem).find((text) => text !== undefined) ?? repeatProblem(names);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    })
    .meta({
      maxItems: MAX_POST_PROCESS_TYPES,
      uniqueItems: true,
      description: 'Post-processing types of spec 2.4. A list (even empty) changes output to {transcript, results} (spec 2.3.2).',
    })
    .nullish()
    .transform((names) => (names ?? null) as PostProcessType[] | null);
}

/** The 1-based number of the item an issue is about (its last path element is the index). */
function itemNumber(path: readonly PropertyKey[] | undefined): number {
  return Number(path?.at(-1) ?? 0) + 1;
}

function notAList(value: unknown): string {
  const hint = typeof value === 'string' ? ` Write ${JSON.stringify([value.slice(0, 40)])} instead of ${describeValue(value)}.` : '';
  return `post_process must be a list of type names such as ["summary"], or null; got ${describeValue(value)}.${hint}`;
}

function countProblem(names: readonly string[]): string | undefined {
  return names.length > MAX_POST_PROCESS_TYPES
    ? `post_process must contain at most ${MAX_POST_PROCESS_TYPES} types; got ${names.length}.`
    : undefined;
}

function typeNameProblem(name: string): string | undefined {
  if (isPostProcessType(name)) return undefined;
  const shown = describeValue(name);
  if (OUTPUT_FORMAT_LOOKALIKES.has(name)) {
    return `post_process item ${shown} is an output format, not a post-processing type; remove it and set output_format to ${shown} instead.`;
  }
  if (INTERNAL_POST_PROCESS_NAMES.has(name)) {
    return `post_process item ${shown} is an internal processing step and cannot be requested; ${VALID_TYPES}.`;
  }
  const lower = name.toLowerCase();
  const hint = isPostProcessType(lower) ? ` Did you mean "${lower}"?` : '';
  return `post_process item ${shown} is not a known type; ${VALID_TYPES}.${hint}`;
}

function repeatProblem(names: readonly string[]): string | undefined {
  const repeated = names.find((name, at) => names.indexOf(name) !== at);
  return repeated === undefined ? undefined : `post_process must not repeat a type; "${repeated}" appears more than once.`;
}
