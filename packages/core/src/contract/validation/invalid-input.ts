/**
 * Helpers shared by the parameter parsers: building the `invalid_input` error (HTTP 422, spec 4.5
 * and 7) and describing an offending value safely.
 *
 * Safety rule: a detail never echoes the raw input. The broken JS client sends its whole client
 * object, API key included, as `input` (replicate-compat 3 and 10.5). Details may quote only a
 * short rendering of the one offending value (at most 40 characters), never objects or lists.
 */
import { AppError } from '../../platform/errors/app-error.ts';

/** Longest part of an offending string quoted in a detail, in characters (code points). */
export const MAX_ECHO_CHARS = 40;

/**
 * Builds the error for a broken creation-input rule.
 * @param param the input parameter concerned, e.g. `post_process` (becomes `AppError.param`).
 * @param detail one or two sentences naming the parameter and the rule, for the 422 `detail`.
 * @returns AppError with code `invalid_input`.
 */
export function invalidInput(param: string, detail: string): AppError {
  return new AppError('invalid_input', detail, { param });
}

/**
 * Renders a value for a detail: strings quoted and cut to {@link MAX_ECHO_CHARS} characters
 * (with `…`), numbers and booleans as written, `null`, and only the kind of lists and objects
 * ("a list", "an object"), never their content.
 */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const head = Array.from(value.slice(0, MAX_ECHO_CHARS * 2));
    const cut = head.length > MAX_ECHO_CHARS || value.length > MAX_ECHO_CHARS * 2;
    return JSON.stringify(head.slice(0, MAX_ECHO_CHARS).join('') + (cut ? '…' : ''));
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a value of type ${typeof value}`;
}

/**
 * Reads one parameter of the input object as an own member only (never from the prototype
 * chain, so `{"__proto__": …}` or `constructor` cannot reach a parser).
 * @returns the member's value, or undefined when absent.
 */
export function readParam(input: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(input, name) ? input[name] : undefined;
}

/**
 * True when `text` has more than `max` Unicode code points (a surrogate pair counts once).
 * Cheap on huge strings: decides from `text.length` when it can.
 */
export function hasMoreCodePointsThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > max * 2) return true;
  let count = 0;
  for (const _char of text) if (++count > max) return true;
  return false;
}
