/** Spec 2.2 / 8 `speakers`: the expected number of speakers. */
import { describeValue, invalidInput } from './invalid-input.ts';

/**
 * Largest accepted `speakers` (our bound; spec 8 gives only ">= 1"). Diarization beyond this many
 * voices in one recording is not meaningful.
 */
export const MAX_SPEAKERS = 32;

/**
 * Validates `speakers`.
 *
 * Accepted: absent or null → null (estimate); a JSON number that is a whole number from 1 to
 * {@link MAX_SPEAKERS} (`2` and `2.0` are the same JSON value). Strings such as "2" are refused:
 * the spec types it as an integer, both prediction clients send JSON numbers, and the multipart
 * and octet-stream forms convert their parts before this check.
 *
 * @returns the number of speakers, or null.
 * @throws AppError `invalid_input` (param `speakers`) for 0, negatives, fractions, strings,
 *   booleans, lists, objects and values over {@link MAX_SPEAKERS}.
 */
export function parseSpeakersParam(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_SPEAKERS) {
    throw invalidInput('speakers', `speakers must be a whole number from 1 to ${MAX_SPEAKERS}, or null to estimate it; got ${describeValue(value)}.`);
  }
  return value;
}
