/** Spec 2.2 `output_format`: the form of the transcript (spec 2.3). */
import { OUTPUT_FORMATS } from './prediction-input.ts';
import { choiceSchema } from './choice-schema.ts';

/**
 * The zod schema of `output_format`: absent or null → `json` (the spec 2.2 default); else exactly
 * one of json, json2, text, srt, lrc (lowercase, case-sensitive, no trimming). An empty string is refused.
 * @returns a schema whose output is the output format; its issue lists the allowed values.
 */
export function outputFormatSchema() {
  return choiceSchema('output_format', OUTPUT_FORMATS)
    .meta({ default: 'json' })
    .nullish()
    .transform((format) => format ?? 'json');
}
