/**
 * Spec 2.2 `prompt` and `hotwords`: hints passed to recognition ("passed on as a transcription
 * hint" and "as keywords"). The spec gives no limits; ours are below.
 */
import { describeValue, hasMoreCodePointsThan, invalidInput } from './invalid-input.ts';

/** Longest `prompt` and longest whole `hotwords` string, in characters (Unicode code points). */
export const MAX_HINT_CHARS = 8192;
/** Most keywords in `hotwords` after splitting. */
export const MAX_HOTWORDS = 100;
/** Longest single keyword of `hotwords`, in characters (Unicode code points). */
export const MAX_HOTWORD_CHARS = 100;

/**
 * Validates `prompt`: absent or null → null; else a string of at most {@link MAX_HINT_CHARS}
 * characters, returned trimmed; an empty or whitespace-only string → null (no hint).
 * @throws AppError `invalid_input` (param `prompt`) when not a string or too long.
 */
export function parsePrompt(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') {
    throw invalidInput('prompt', `prompt must be a string or null; got ${describeValue(value)}.`);
  }
  if (hasMoreCodePointsThan(value, MAX_HINT_CHARS)) {
    throw invalidInput('prompt', `prompt must be at most ${MAX_HINT_CHARS} characters long.`);
  }
  const text = value.trim();
  return text === '' ? null : text;
}

/**
 * Validates `hotwords`: absent or null → []; else a comma-separated string (at most
 * {@link MAX_HINT_CHARS} characters) split at commas, each keyword trimmed, empty ones dropped,
 * order and repeats kept. At most {@link MAX_HOTWORDS} keywords of at most
 * {@link MAX_HOTWORD_CHARS} characters each. A list of strings is refused (the spec types it as a string).
 * @returns the keywords, e.g. `"Acme, , Kubernetes"` → `['Acme', 'Kubernetes']`.
 * @throws AppError `invalid_input` (param `hotwords`) when not a string or over a limit.
 */
export function parseHotwords(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== 'string') {
    throw invalidInput('hotwords', `hotwords must be a comma-separated string such as "Acme, Kubernetes", or null; got ${describeValue(value)}.`);
  }
  if (hasMoreCodePointsThan(value, MAX_HINT_CHARS)) {
    throw invalidInput('hotwords', `hotwords must be at most ${MAX_HINT_CHARS} characters long.`);
  }
  const words = value.split(',').map((word) => word.trim()).filter((word) => word !== '');
  if (words.length > MAX_HOTWORDS) {
    throw invalidInput('hotwords', `hotwords must contain at most ${MAX_HOTWORDS} keywords; got ${words.length}.`);
  }
  const long = words.find((word) => hasMoreCodePointsThan(word, MAX_HOTWORD_CHARS));
  if (long !== undefined) {
    throw invalidInput('hotwords', `each keyword in hotwords must be at most ${MAX_HOTWORD_CHARS} characters; ${describeValue(long)} is longer.`);
  }
  return words;
}
