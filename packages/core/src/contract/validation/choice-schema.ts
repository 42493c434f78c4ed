/** A parameter whose value is one of a fixed list of words (spec 2.2 output_format, domain, efficiency; spec 9 output_format). */
import { z } from 'zod';
import { describeValue } from './invalid-input.ts';

/**
 * The zod schema of a word from `allowed`. Matching is case-sensitive and does not trim: the spec
 * lists lowercase words and nothing else; the detail lists the allowed words, so a caller can
 * correct `"JSON"` to `"json"` at once. Absent and null are not handled here (the caller adds
 * `.nullish()` and its default).
 *
 * @param param the parameter name for the detail.
 * @param allowed the accepted words, in the order to list them (also the JSON Schema `enum`).
 * @param orNull whether the detail should add "or null" (for parameters that take null).
 * @returns a z.enum whose issue message is `<param> must be one of: <list>; got <value>.`
 */
export function choiceSchema<const T extends readonly [string, ...string[]]>(param: string, allowed: T, orNull = false) {
  const list = allowed.join(', ') + (orNull ? ', or null' : '');
  return z.enum(allowed, { error: (issue) => `${param} must be one of: ${list}; got ${describeValue(issue.input)}.` });
}
