/** A parameter whose value is one of a fixed list of words (spec 2.2 output_format, domain, efficiency). */
import { describeValue, invalidInput } from './invalid-input.ts';

/**
 * Checks that `value` is exactly one of `allowed`. Matching is case-sensitive and does not trim:
 * the spec lists lowercase words and nothing else; the detail lists the allowed words, so a
 * caller can correct `"JSON"` to `"json"` at once.
 *
 * @param value a value already known to be present (not undefined and not null).
 * @param param the parameter name for the detail and `AppError.param`.
 * @param allowed the accepted words, in the order to list them.
 * @param orNull whether the detail should add "or null" (for parameters that take null).
 * @returns the value typed as one of `allowed`.
 * @throws AppError `invalid_input` (param = `param`) when `value` is not one of `allowed`.
 */
export function parseChoice<T extends string>(value: unknown, param: string, allowed: readonly T[], orNull = false): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const list = allowed.join(', ') + (orNull ? ', or null' : '');
  throw invalidInput(param, `${param} must be one of: ${list}; got ${describeValue(value)}.`);
}
