/** Spec 2.2 / 2.4 / 4.5 rule 1 / 8 `post_process`: the list of post-processing types to run. */
import {
  INTERNAL_POST_PROCESS_NAMES, isPostProcessType, MAX_POST_PROCESS_TYPES, OUTPUT_FORMAT_LOOKALIKES,
  POST_PROCESS_TYPE_NAMES, type PostProcessType,
} from '../spec/post-process-types.ts';
import { describeValue, invalidInput } from './invalid-input.ts';

const VALID_TYPES = `valid types: ${POST_PROCESS_TYPE_NAMES.join(', ')}`;

/**
 * Validates `post_process`.
 *
 * - absent or null → null (plain output, spec 2.3.1);
 * - a list (possibly empty, spec 2.3.2) of at most 8 unique strings, each exactly one of the 18
 *   types of spec 2.4 (case-sensitive) → the list, order kept.
 * Checked in this order: is a list; every item is a string; at most 8 items; each item is not an
 * internal name (output formats get a hint to use output_format) and is a known type; no repeats.
 *
 * @returns the types, or null.
 * @throws AppError `invalid_input` (param `post_process`) for the first broken rule.
 */
export function parsePostProcess(value: unknown): PostProcessType[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) {
    const hint = typeof value === 'string' ? ` Write ${JSON.stringify([value.slice(0, 40)])} instead of ${describeValue(value)}.` : '';
    throw invalidInput('post_process', `post_process must be a list of type names such as ["summary"], or null; got ${describeValue(value)}.${hint}`);
  }
  const index = value.findIndex((item) => typeof item !== 'string');
  if (index >= 0) {
    throw invalidInput('post_process', `post_process must contain only type names as strings; item ${index + 1} is ${describeValue(value[index])}.`);
  }
  if (value.length > MAX_POST_PROCESS_TYPES) {
    throw invalidInput('post_process', `post_process must contain at most ${MAX_POST_PROCESS_TYPES} types; got ${value.length}.`);
  }
  const types = (value as string[]).map(checkTypeName);
  const repeated = types.find((type, at) => types.indexOf(type) !== at);
  if (repeated !== undefined) {
    throw invalidInput('post_process', `post_process must not repeat a type; "${repeated}" appears more than once.`);
  }
  return types;
}

function checkTypeName(name: string): PostProcessType {
  if (isPostProcessType(name)) return name;
  const shown = describeValue(name);
  if (OUTPUT_FORMAT_LOOKALIKES.has(name)) {
    throw invalidInput('post_process', `post_process item ${shown} is an output format, not a post-processing type; remove it and set output_format to ${shown} instead.`);
  }
  if (INTERNAL_POST_PROCESS_NAMES.has(name)) {
    throw invalidInput('post_process', `post_process item ${shown} is an internal processing step and cannot be requested; ${VALID_TYPES}.`);
  }
  const lower = name.toLowerCase();
  const hint = isPostProcessType(lower) ? ` Did you mean "${lower}"?` : '';
  throw invalidInput('post_process', `post_process item ${shown} is not a known type; ${VALID_TYPES}.${hint}`);
}
