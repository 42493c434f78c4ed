/**
 * From zod's issues to the one `invalid_input` error of a creation input (HTTP 422, spec 4.5 and 7):
 * the input schemas (prediction-input-schema.ts, parse-legacy-input.ts) give every issue its final
 * detail text as message, and the first issue in rule order is reported.
 */
import type { z } from 'zod';
import type { AppError } from '../../platform/errors/app-error.ts';
import { invalidInput, readParam } from './invalid-input.ts';

/**
 * The 422 detail for an `input` that is missing or not a JSON object (null, a list, a string, …).
 * The detail names only the kind of value, never its content.
 */
export function inputObjectProblem(value: unknown): string {
  if (value === undefined || value === null) {
    return 'input is required: send an object with at least audio, for example {"input": {"audio": "https://example.com/talk.mp3"}}.';
  }
  return `input must be an object of parameters such as {"audio": "https://example.com/talk.mp3"}; got ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}.`;
}

/**
 * The members `names` that `raw` holds as own members (never from the prototype chain, so
 * `{"__proto__": …}` or `constructor` cannot reach a schema), in an object without prototype.
 * @returns that object, or `raw` unchanged when it is not a JSON object (the schema then refuses it).
 */
export function pickOwnMembers(raw: unknown, names: readonly string[]): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
  const members: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of names) {
    const value = readParam(raw as Readonly<Record<string, unknown>>, name);
    if (value !== undefined) members[name] = value;
  }
  return members;
}

/**
 * Chooses the issue to report and turns it into the error.
 *
 * An issue's rule is its `params.rule` when the schema set one (a rule between parameters, e.g.
 * `language_model`), else its parameter (`path[0]`, or `input` for the input itself). The first
 * issue of the earliest rule in `ruleOrder` wins; within one rule, zod's order (the order of the
 * schema's checks) decides.
 *
 * @param issues zod's issues, each message already the detail text (non-empty).
 * @param ruleOrder every rule and parameter, in the order they are documented to be checked.
 * @returns AppError `invalid_input` with `param` = the issue's parameter and the issue's message as detail.
 */
export function reportInputIssue(issues: readonly z.core.$ZodIssue[], ruleOrder: readonly string[]): AppError {
  const rank = (issue: z.core.$ZodIssue): number => {
    const index = ruleOrder.indexOf(ruleOf(issue));
    return index < 0 ? ruleOrder.length : index;
  };
  const first = issues.reduce((best, issue) => (rank(issue) < rank(best) ? issue : best));
  return invalidInput(paramOf(first), first.message);
}

function paramOf(issue: z.core.$ZodIssue): string {
  return issue.path.length > 0 ? String(issue.path[0]) : 'input';
}

function ruleOf(issue: z.core.$ZodIssue): string {
  const rule = issue.code === 'custom' ? (issue.params as { rule?: unknown } | undefined)?.rule : undefined;
  return typeof rule === 'string' ? rule : paramOf(issue);
}
