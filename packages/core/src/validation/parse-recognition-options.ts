/**
 * Spec 2.2 `domain`, `efficiency` and `multilingual`: options "validated before download; passed
 * to recognition". Spec 7 leaves the status for invalid values "not shown"; we answer 422
 * (`invalid_input`), like every other creation-input rule.
 */
import { DOMAINS, EFFICIENCIES, type Domain, type Efficiency } from './prediction-input.ts';
import { describeValue, invalidInput } from './invalid-input.ts';
import { parseChoice } from './parse-choice.ts';

/**
 * Validates `domain`: absent or null → null; else exactly one of auto, general, telephonic,
 * meeting, surveillance, song, studio, news, experimental (lowercase, case-sensitive).
 * @throws AppError `invalid_input` (param `domain`) listing the values otherwise.
 */
export function parseDomain(value: unknown): Domain | null {
  if (value === undefined || value === null) return null;
  return parseChoice(value, 'domain', DOMAINS, true);
}

/**
 * Validates `efficiency`: absent or null → null; else exactly one of fast, balanced, accurate
 * (lowercase, case-sensitive).
 * @throws AppError `invalid_input` (param `efficiency`) listing the values otherwise.
 */
export function parseEfficiency(value: unknown): Efficiency | null {
  if (value === undefined || value === null) return null;
  return parseChoice(value, 'efficiency', EFFICIENCIES, true);
}

/**
 * Validates `multilingual`: absent or null → null; else a JSON boolean. Strings such as "true"
 * are refused (multipart parts are converted before this check).
 * @throws AppError `invalid_input` (param `multilingual`) otherwise.
 */
export function parseMultilingual(value: unknown): boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'boolean') {
    throw invalidInput('multilingual', `multilingual must be true, false or null; got ${describeValue(value)}.`);
  }
  return value;
}
