/** Test helpers for the validation tests (not a test file itself). */
import { expect } from 'vitest';
import { AppError, isAppError } from '../../platform/errors/app-error.ts';
import { parsePredictionInput, type ParseInputOptions } from './parse-prediction-input.ts';
import type { PredictionInput } from './prediction-input.ts';

export const LINK = 'https://example.com/talk.mp3';

export const LANGUAGE_LIST_URL = 'https://api.example.test/v1/replicate/v1/languages';
export const OPTIONS: ParseInputOptions = {
  recognitionLanguages: 'any',
  engineName: 'test-engine',
  languageListUrl: LANGUAGE_LIST_URL,
  identifiesLanguages: true,
  llmConfigured: true,
};

/** parsePredictionInput on `{ audio: LINK, ...params }` (pass `audio: undefined` to drop it). */
export function parseWith(params: Record<string, unknown>, options: Partial<ParseInputOptions> = {}): PredictionInput {
  return parsePredictionInput({ audio: LINK, ...params }, { ...OPTIONS, ...options });
}

/** Runs `run`, expects an AppError `invalid_input` and returns it. */
export function catchInvalid(run: () => unknown): AppError {
  try {
    run();
  } catch (error) {
    expect(isAppError(error, 'invalid_input'), String(error)).toBe(true);
    return error as AppError;
  }
  throw new Error('expected an invalid_input AppError, but nothing was thrown');
}

/** Like catchInvalid, and checks `param` and that the detail names the parameter. */
export function expectInvalid(run: () => unknown, param: string): AppError {
  const error = catchInvalid(run);
  expect(error.param).toBe(param);
  expect(error.message).toContain(param);
  expect(error.message.length).toBeLessThan(600);
  return error;
}
