import type { ServiceContext } from '../../service-context.ts';
import { LANGUAGE_LIST_PATH } from '../../contract/spec/languages.ts';
import { parsePredictionInput } from '../../contract/validation/parse-prediction-input.ts';
import type { PredictionInput } from '../../contract/validation/prediction-input.ts';

/**
 * Checks a creation input without creating anything, with the same rules and options as
 * createPrediction, which calls it (spec 2.2, 4.5). Used to refuse an octet-stream upload whose query parameters
 * are invalid before its body is read.
 * @param uploadName set when the recording comes as a file in the request (then `audio` is not read).
 * @returns the validated input.
 * @throws AppError `invalid_input` (HTTP 422).
 */
export function checkPredictionInput(ctx: ServiceContext, rawInput: unknown, uploadName?: string): PredictionInput {
  return parsePredictionInput(rawInput, {
    recognitionLanguages: ctx.engine.languages,
    engineName: ctx.engine.name,
    languageListUrl: `${ctx.config.apiBaseUrl}${LANGUAGE_LIST_PATH}`,
    identifiesLanguages: ctx.engine.identifiesLanguages ?? false,
    llmConfigured: ctx.config.llmConfigured,
    uploadedAudio: uploadName === undefined ? undefined : `upload:${uploadName}`,
  });
}
