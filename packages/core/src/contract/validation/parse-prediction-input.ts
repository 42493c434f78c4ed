/**
 * The whole creation-input contract (spec 2.2, 4.5, 7, 8): turns the `input` member of a create
 * request into a PredictionInput, or refuses it with one `invalid_input` error (HTTP 422) before
 * any prediction is created, anything is downloaded or anything is charged. The rules are the zod
 * schema of prediction-input-schema.ts.
 */
import type { PredictionInput } from './prediction-input.ts';
import { buildPredictionInputSchema, PREDICTION_INPUT_RULES, type InputSchemaOptions } from './prediction-input-schema.ts';
import { pickOwnMembers, reportInputIssue } from './report-input-issue.ts';

export interface ParseInputOptions extends Omit<InputSchemaOptions, 'readsAudio'> {
  /**
   * Set when the recording came as a file in the request itself (multipart `input.audio` part or
   * octet-stream body, spec 4.1): this value becomes `audio` as is and `input.audio` is not read.
   * Users cannot send such internal values (e.g. `upload:<name>`) through `input.audio`.
   */
  uploadedAudio?: string;
}

type PredictionInputSchema = ReturnType<typeof buildPredictionInputSchema>;

/** Schemas built per configuration (a service has one or two: with and without `audio`). */
const schemas = new Map<string, PredictionInputSchema>();
const MAX_CACHED_SCHEMAS = 16;

/**
 * Validates a creation `input` object.
 *
 * Rules are checked in the fixed order PREDICTION_INPUT_RULES (docs/input-rules.md "Order of
 * checks": input is an object, then each parameter in turn, the language model right after
 * post_process) and the first broken one is reported. The ignored parameters
 * (IGNORED_INPUT_PARAMETERS) and unknown members are accepted, have no effect and are not copied.
 * Only own members are read.
 *
 * @param raw the decoded `input` member (any JSON value, or undefined when missing).
 * @param options the configured engine and language model; `uploadedAudio` for in-request files.
 * @returns the validated input; see each *-schema.ts file for the accepted forms.
 * @throws AppError `invalid_input` with `param` set to the parameter concerned (`input` when the
 *   input itself is missing or not an object). Details never quote the input object.
 */
export function parsePredictionInput(raw: unknown, options: ParseInputOptions): PredictionInput {
  const schema = schemaFor(options);
  const result = schema.safeParse(pickOwnMembers(raw, Object.keys(schema.in.shape)));
  if (!result.success) throw reportInputIssue(result.error.issues, PREDICTION_INPUT_RULES);
  return options.uploadedAudio === undefined ? result.data : { ...result.data, audio: options.uploadedAudio };
}

function schemaFor(options: ParseInputOptions): PredictionInputSchema {
  const { recognitionLanguages, engineName, languageListUrl, identifiesLanguages, llmConfigured } = options;
  const readsAudio = options.uploadedAudio === undefined;
  const key = JSON.stringify([recognitionLanguages, engineName, languageListUrl ?? null, identifiesLanguages, llmConfigured, readsAudio]);
  let schema = schemas.get(key);
  if (schema === undefined) {
    if (schemas.size >= MAX_CACHED_SCHEMAS) schemas.clear();
    schema = buildPredictionInputSchema({
      recognitionLanguages,
      engineName,
      languageListUrl,
      identifiesLanguages,
      llmConfigured,
      readsAudio,
    });
    schemas.set(key, schema);
  }
  return schema;
}
