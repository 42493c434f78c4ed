import { AppError } from '../../platform/errors/app-error.ts';
import { DEFAULT_TEXT_OPTIONS } from './render-text.ts';
import type { TextOptions } from './render-text.ts';

/** Name of the output control header (spec 4.4). */
export const OUTPUT_TRANSFORMERS_HEADER = 'X-Service-Output-Transformers';

/** The parsed header: plain text with the three switches (spec 4.4). */
export interface TextTransformer extends TextOptions {
  kind: 'text';
}

const SWITCHES = ['speakers', 'timestamps', 'pauses'] as const;
type SwitchName = (typeof SWITCHES)[number];

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, '1': true, '0': false };

function reject(rule: string): never {
  throw new AppError('invalid_input', `${OUTPUT_TRANSFORMERS_HEADER}: ${rule} (spec 4.4)`, {
    param: OUTPUT_TRANSFORMERS_HEADER,
  });
}

/** One `name=value` switch of the query part. */
function parseSwitch(part: string, given: ReadonlySet<string>): [SwitchName, boolean] {
  if (part === '') reject('empty switch; write name=value pairs joined with "&"');
  const eq = part.indexOf('=');
  const name = eq < 0 ? part : part.slice(0, eq);
  if (!(SWITCHES as readonly string[]).includes(name)) {
    reject(`unknown switch "${name}"; allowed: ${SWITCHES.join(', ')}`);
  }
  if (given.has(name)) reject(`switch "${name}" is given more than once`);
  const raw = eq < 0 ? undefined : part.slice(eq + 1);
  const value = raw === undefined ? undefined : BOOLEANS[raw.toLowerCase()];
  if (value === undefined) reject(`switch "${name}" must be true or false (or 1 / 0), got "${raw ?? ''}"`);
  return [name as SwitchName, value];
}

/**
 * Parses header `X-Service-Output-Transformers` (spec 4.4; grammar in docs/formats.md):
 * `text[?switch(&switch)*]`, switch = `speakers|timestamps|pauses` `=` `true|false|1|0`
 * (value case-insensitive; names exact). A missing switch takes DEFAULT_TEXT_OPTIONS
 * (speakers=true, timestamps=true, pauses=false). Surrounding whitespace is ignored.
 * @returns `{kind: 'text', speakers, timestamps, pauses}`, or null for an absent or empty header.
 * @throws AppError `invalid_input` (param = header name) for an unknown transformer, an empty
 *   query, an empty / unknown / repeated switch, or a value other than true, false, 1, 0.
 */
export function parseOutputTransformers(header: string | null | undefined): TextTransformer | null {
  const value = (header ?? '').trim();
  if (value === '') return null;
  const mark = value.indexOf('?');
  const name = mark < 0 ? value : value.slice(0, mark);
  if (name !== 'text') reject(`unknown output transformer "${name}"; the only one is "text"`);
  const options: TextOptions = { ...DEFAULT_TEXT_OPTIONS };
  if (mark < 0) return { kind: 'text', ...options };
  const query = value.slice(mark + 1);
  if (query === '') reject('"?" must be followed by switches such as speakers=true');
  const given = new Set<string>();
  for (const part of query.split('&')) {
    const [switchName, switchValue] = parseSwitch(part, given);
    given.add(switchName);
    options[switchName] = switchValue;
  }
  return { kind: 'text', ...options };
}
