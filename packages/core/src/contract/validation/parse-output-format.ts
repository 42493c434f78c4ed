/** Spec 2.2 `output_format`: the form of the transcript (spec 2.3). */
import { OUTPUT_FORMATS, type OutputFormat } from './prediction-input.ts';
import { parseChoice } from './parse-choice.ts';

/**
 * Validates `output_format`.
 *
 * Accepted: absent or null → `json` (the spec 2.2 default); exactly one of json, json2, text, srt,
 * lrc (lowercase, case-sensitive, no trimming). An empty string is refused.
 *
 * @returns the output format.
 * @throws AppError `invalid_input` (param `output_format`) listing the allowed values otherwise.
 */
export function parseOutputFormat(value: unknown): OutputFormat {
  if (value === undefined || value === null) return 'json';
  return parseChoice(value, 'output_format', OUTPUT_FORMATS);
}
