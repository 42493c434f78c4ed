/**
 * The earlier variant of the interface (spec 9): input `{ url, output_format }` where `url` takes
 * the place of `audio` and output_format is text (default), json_verbose or txt_file_url.
 */
import { z } from 'zod';
import type { PredictionInput } from './prediction-input.ts';
import { audioSchema } from './audio-schema.ts';
import { choiceSchema } from './choice-schema.ts';
import { inputObjectProblem, pickOwnMembers, reportInputIssue } from './report-input-issue.ts';

export const LEGACY_OUTPUT_FORMATS = ['text', 'json_verbose', 'txt_file_url'] as const;
export type LegacyOutputFormat = (typeof LEGACY_OUTPUT_FORMATS)[number];

export interface LegacyInput {
  /** audio = url, output_format `text`, every other parameter at its default (no post-processing). */
  input: PredictionInput;
  /** The output form the legacy caller asked for; the caller renders it from the transcript. */
  legacyFormat: LegacyOutputFormat;
}

const LEGACY_RULES = ['input', 'url', 'output_format'];

/**
 * The zod schema of a legacy creation input (spec 9), also its JSON Schema in the OpenAPI document.
 * - `url`: required; same accepted forms as `audio` (http(s) link or base64 data URI), see
 *   audioSchema; details name `url`.
 * - `output_format`: absent or null → `text`; else exactly one of text, json_verbose, txt_file_url.
 * - every other member (the spec lists none) is ignored, `audio` included.
 */
export const legacyInputSchema = z.object(
  {
    url: audioSchema('url'),
    output_format: choiceSchema('output_format', LEGACY_OUTPUT_FORMATS)
      .meta({ default: 'text' })
      .nullish()
      .transform((format) => format ?? 'text'),
  },
  { error: (issue) => inputObjectProblem(issue.input) },
);

/**
 * Validates a legacy creation input with {@link legacyInputSchema}.
 *
 * @param raw the decoded `input` member.
 * @returns the equivalent PredictionInput (output_format `text`) and the legacy format.
 * @throws AppError `invalid_input` with param `input`, `url` or `output_format` (the first broken, in that order).
 */
export function parseLegacyInput(raw: unknown): LegacyInput {
  const result = legacyInputSchema.safeParse(pickOwnMembers(raw, LEGACY_RULES.slice(1)));
  if (!result.success) throw reportInputIssue(result.error.issues, LEGACY_RULES);
  return {
    input: {
      audio: result.data.url,
      language: null,
      speakers: null,
      output_format: 'text',
      domain: null,
      efficiency: null,
      multilingual: null,
      prompt: null,
      hotwords: [],
      post_process: null,
      custom_prompt: null,
      target_language: null,
    },
    legacyFormat: result.data.output_format,
  };
}
