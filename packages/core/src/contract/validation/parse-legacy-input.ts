/**
 * The earlier variant of the interface (spec 9): input `{ url, output_format }` where `url` takes
 * the place of `audio` and output_format is text (default), json_verbose or txt_file_url.
 */
import type { PredictionInput } from './prediction-input.ts';
import { readParam } from './invalid-input.ts';
import { parseAudioParam } from './parse-audio-param.ts';
import { parseChoice } from './parse-choice.ts';
import { requireInputObject } from './parse-prediction-input.ts';

export const LEGACY_OUTPUT_FORMATS = ['text', 'json_verbose', 'txt_file_url'] as const;
export type LegacyOutputFormat = (typeof LEGACY_OUTPUT_FORMATS)[number];

export interface LegacyInput {
  /** audio = url, output_format `text`, every other parameter at its default (no post-processing). */
  input: PredictionInput;
  /** The output form the legacy caller asked for; the caller renders it from the transcript. */
  legacyFormat: LegacyOutputFormat;
}

/**
 * Validates a legacy creation input (spec 9).
 *
 * - `url`: required; same accepted forms as `audio` (http(s) link or base64 data URI), see
 *   parseAudioParam; details name `url`.
 * - `output_format`: absent or null → `text`; else exactly one of text, json_verbose, txt_file_url.
 * - every other member (the spec lists none) is ignored, `audio` included.
 *
 * @param raw the decoded `input` member.
 * @returns the equivalent PredictionInput (output_format `text`) and the legacy format.
 * @throws AppError `invalid_input` with param `input`, `url` or `output_format`.
 */
export function parseLegacyInput(raw: unknown): LegacyInput {
  const input = requireInputObject(raw);
  const audio = parseAudioParam(readParam(input, 'url'), 'url');
  const format = readParam(input, 'output_format');
  const legacyFormat = format === undefined || format === null
    ? 'text'
    : parseChoice(format, 'output_format', LEGACY_OUTPUT_FORMATS);
  return {
    input: {
      audio, language: null, speakers: null, output_format: 'text', domain: null, efficiency: null,
      multilingual: null, prompt: null, hotwords: [], post_process: null, custom_prompt: null,
      target_language: null,
    },
    legacyFormat,
  };
}
