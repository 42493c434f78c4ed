import { AppError } from '@transcribe/core';

/** Prefix of the form parts / query parameters that carry input parameters (spec 4.1). */
const INPUT_PREFIX = 'input.';
/** Parameters typed as numbers (spec 2.2). */
const NUMBER_PARAMS = new Set(['speakers']);
/** Parameters typed as booleans (spec 2.2). */
const BOOLEAN_PARAMS = new Set(['multilingual', 'drop_flagged']);
/** Parameters typed as lists (spec 2.2): a JSON array string, or one item per repeated part. */
const LIST_PARAMS = new Set(['post_process']);

/**
 * Turns the `input.<name>` parts of a multipart form, or the `input.<name>=…` query parameters of an
 * octet-stream create (spec 4.1), into an `input` object with the parameters' JSON types, so the
 * same validation as for JSON bodies applies (docs/input-rules.md):
 * - the text `null` → null, for every parameter;
 * - `speakers`: a decimal number → that number;
 * - `multilingual`, `drop_flagged`: `true` / `false` → the boolean;
 * - `post_process`: one value starting with `[` → parsed as a JSON array; otherwise each repeated
 *   part is one item (`input.post_process=summary&input.post_process=gist`);
 * - anything else, and values that do not convert, stay strings (validation then names the rule).
 * Names without the `input.` prefix are ignored.
 * @throws AppError `invalid_input` (422) for a repeated non-list parameter or a malformed JSON list.
 */
export function formFieldsToInput(entries: Iterable<[string, string]>): Record<string, unknown> {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of entries) {
    if (typeof key !== 'string' || !key.startsWith(INPUT_PREFIX) || key.length === INPUT_PREFIX.length) continue; // busboy names an unnamed part undefined
    const name = key.slice(INPUT_PREFIX.length);
    grouped.set(name, [...(grouped.get(name) ?? []), value]);
  }
  return Object.fromEntries([...grouped].map(([name, values]) => [name, convert(name, values)]));
}

function convert(name: string, values: string[]): unknown {
  if (LIST_PARAMS.has(name)) return convertList(name, values);
  if (values.length > 1) {
    throw new AppError('invalid_input', `input.${name.slice(0, 64)} is given more than once; send it once.`, { param: name });
  }
  const value = values[0] ?? '';
  if (value === 'null') return null;
  if (NUMBER_PARAMS.has(name) && /^-?\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  if (BOOLEAN_PARAMS.has(name) && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function convertList(name: string, values: string[]): unknown {
  const only = values.length === 1 ? (values[0] as string) : null;
  if (only === 'null') return null;
  if (only === null || !only.trimStart().startsWith('[')) return values;
  try {
    return JSON.parse(only) as unknown;
  } catch {
    throw new AppError(
      'invalid_input',
      `input.${name} is not a valid JSON list; send for example ["summary", "gist"], or one part per item.`,
      {
        param: name,
      },
    );
  }
}
