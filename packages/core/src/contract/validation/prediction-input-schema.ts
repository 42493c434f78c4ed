/**
 * The zod schema of the whole creation input (spec 2.2, 4.5, 7, 8): the one source of both the
 * parser (parse-prediction-input.ts) and the JSON Schema of the OpenAPI document
 * (build-input-json-schema.ts). Each parameter's schema lives in its own file.
 */
import { z } from 'zod';
import type { PredictionInput } from './prediction-input.ts';
import { inputObjectProblem } from './report-input-issue.ts';
import { audioSchema } from './audio-schema.ts';
import { languageSchema } from './language-schema.ts';
import { speakersSchema } from './speakers-schema.ts';
import { outputFormatSchema } from './output-format-schema.ts';
import { domainSchema, efficiencySchema, multilingualSchema } from './recognition-option-schemas.ts';
import { hotwordsSchema, promptSchema } from './hint-schemas.ts';
import { cutDurationSchema, cutStartSchema } from './cut-schemas.ts';
import { postProcessSchema } from './post-process-schema.ts';
import { customPromptProblem, customPromptSchema, needsCustomPrompt } from './custom-prompt-schema.ts';
import { knownVoicesSchema, knownVoicesThresholdSchema } from './known-voices-schema.ts';
import { dropFlaggedSchema } from './drop-flagged-schema.ts';
import { targetLanguageProblem, targetLanguageSchema, typeNeedingTargetLanguage } from './target-language-schema.ts';

/** What the rules depend on: the configured engine and language model (ParseInputOptions without the upload). */
export interface InputSchemaOptions {
  /** Codes the configured recognition engine recognises (RecognitionEngine.languages), or 'any'. */
  recognitionLanguages: readonly string[] | 'any';
  /** Name of the configured recognition engine, for details. */
  engineName: string;
  /** Absolute URL of the service's language list (`{apiBaseUrl}/languages`), named in language details. */
  languageListUrl?: string | undefined;
  /** Whether the engine tells languages apart (RecognitionEngine.identifiesLanguages): `multilingual: true` needs it. */
  identifiesLanguages: boolean;
  /** Whether a language model is configured; post-processing needs one. */
  llmConfigured: boolean;
  /** False when the recording came as a file in the request (spec 4.1): `audio` is then not read at all. */
  readsAudio: boolean;
}

/** A schema that does not depend on the configuration, built once (a zod schema is immutable). */
function fixed<T>(schema: T): (options: InputSchemaOptions) => T {
  return () => schema;
}

/**
 * The parameters of spec 2.2 that take effect, each with the builder of its schema for a configuration,
 * in the order their rules are checked: the one list of them. The object schema, the rule order
 * (PREDICTION_INPUT_RULES), the members the parser reads and the members echoed back in a prediction's
 * `input` (SPEC_INPUT_PARAMETERS) all come from it.
 */
const PARAMETER_SCHEMAS = {
  audio: fixed(audioSchema()),
  language: (options: InputSchemaOptions) => languageSchema(options),
  speakers: fixed(speakersSchema()),
  output_format: fixed(outputFormatSchema()),
  domain: fixed(domainSchema()),
  efficiency: fixed(efficiencySchema()),
  multilingual: (options: InputSchemaOptions) => multilingualSchema(options),
  prompt: fixed(promptSchema()),
  hotwords: fixed(hotwordsSchema()),
  cut_start: fixed(cutStartSchema()),
  cut_duration: fixed(cutDurationSchema()),
  post_process: fixed(postProcessSchema()),
  custom_prompt: fixed(customPromptSchema()),
  target_language: (options: InputSchemaOptions) => targetLanguageSchema(options.languageListUrl),
  known_voices: fixed(knownVoicesSchema()),
  known_voices_threshold: fixed(knownVoicesThresholdSchema()),
  drop_flagged: fixed(dropFlaggedSchema()),
};

/** A parameter of spec 2.2 that takes effect. */
export type InputParameter = keyof typeof PARAMETER_SCHEMAS;
type ParameterSchemas = { [Name in InputParameter]: ReturnType<(typeof PARAMETER_SCHEMAS)[Name]> };

/** The parameters of spec 2.2 that take effect, in the order their rules are checked. */
export const PREDICTION_INPUT_PARAMETERS = Object.keys(PARAMETER_SCHEMAS) as InputParameter[];

/** The parameters of spec 2.2 that the service accepts and ignores (no effect, not copied, echoed back). */
export const IGNORED_INPUT_PARAMETERS = [
  'batch_size',
  'correction',
  'debug',
  'spelling',
  'stereo',
  'enhance_asr',
  'log_progress',
  'auto_multilingual',
] as const;

/** Every parameter of spec 2.2, the ignored ones last: the members of `input` a prediction shows (describe-input.ts). */
export const SPEC_INPUT_PARAMETERS: readonly string[] = [...PREDICTION_INPUT_PARAMETERS, ...IGNORED_INPUT_PARAMETERS];

/**
 * The rules in the order they are checked; the first broken one is reported (reportInputIssue):
 * `input` (an object), then each parameter in turn, and right after `post_process` the rule
 * `language_model` ("a language model is configured when post_process is non-empty").
 */
export const PREDICTION_INPUT_RULES: readonly string[] = [
  'input',
  ...PREDICTION_INPUT_PARAMETERS.flatMap((name) => (name === 'post_process' ? [name, 'language_model'] : [name])),
];

const DESCRIPTION = `Spec 2.2. Unknown members and the ignored parameters (${IGNORED_INPUT_PARAMETERS.join(', ')}) are accepted and have no effect.`;

/**
 * Builds the schema of a creation `input` for one configuration.
 *
 * Parameters are read in PREDICTION_INPUT_PARAMETERS order; the rules between parameters
 * (language_model, custom_prompt and target_language needing post_process types) are one
 * refinement of the object that runs even when a parameter failed, so rule order decides what is
 * reported. Ignored parameters and unknown members are stripped (not copied).
 *
 * @param options the configured engine and language model, and whether `audio` is read.
 * @returns a zod schema whose output is a PredictionInput (`audio` undefined when `readsAudio` is
 *   false: the caller fills it) and whose issues carry the 422 details (param = `path[0]`).
 */
export function buildPredictionInputSchema(options: InputSchemaOptions) {
  const { audio, ...rest } = Object.fromEntries(
    PREDICTION_INPUT_PARAMETERS.map((name) => [name, PARAMETER_SCHEMAS[name](options)]),
  ) as ParameterSchemas;
  const shape = { ...(options.readsAudio ? { audio } : {}), ...rest };
  return z
    .object(shape, { error: (issue) => inputObjectProblem(issue.input) })
    .superRefine(
      (input, ctx) => {
        const failed = new Set(ctx.issues.map((issue) => issue.path?.[0]));
        if (failed.has(undefined) || failed.has('post_process')) return;
        const types = input.post_process;
        if (types !== null && types.length > 0 && !options.llmConfigured) {
          const message =
            'post_process needs a language model, and none is configured on this server; leave post_process out or ask the operator to configure one.';
          ctx.addIssue({ code: 'custom', path: ['post_process'], params: { rule: 'language_model' }, message });
        }
        const customProblem = failed.has('custom_prompt') ? undefined : customPromptProblem(input.custom_prompt, types);
        if (customProblem !== undefined) ctx.addIssue({ code: 'custom', path: ['custom_prompt'], message: customProblem });
        const targetProblem = failed.has('target_language')
          ? undefined
          : targetLanguageProblem(input.target_language, types, options.languageListUrl);
        if (targetProblem !== undefined) ctx.addIssue({ code: 'custom', path: ['target_language'], message: targetProblem });
      },
      { when: () => true },
    )
    .describe(DESCRIPTION)
    .transform((input): PredictionInput => toPredictionInput(input as ParsedParameters));
}

/** What the object schema gives (the parameters' own outputs), `audio` absent when it is not read. */
type ParsedParameters = z.output<z.ZodObject<Omit<ParameterSchemas, 'audio'>>> & { audio?: string };

function toPredictionInput(input: ParsedParameters): PredictionInput {
  const types = input.post_process;
  return {
    audio: input.audio as string,
    language: input.language,
    speakers: input.speakers,
    output_format: input.output_format,
    domain: input.domain,
    efficiency: input.efficiency,
    multilingual: input.multilingual,
    prompt: input.prompt,
    hotwords: input.hotwords,
    post_process: types,
    custom_prompt: needsCustomPrompt(types) ? (input.custom_prompt ?? null) : null,
    target_language: typeNeedingTargetLanguage(types) === undefined ? null : input.target_language,
    known_voices: input.known_voices,
    known_voices_threshold: input.known_voices === null ? null : input.known_voices_threshold,
    ...(input.drop_flagged ? { drop_flagged: true } : {}),
  };
}
