/** Spec 2.2 / 8 `speakers`: the expected number of speakers. */
import { describeValue, invalidInput } from './invalid-input.ts';

/**
 * Validates `speakers` (spec 8: "integer >= 1"; no upper bound is set there, so none is set here).
 *
 * Accepted: absent or null → null (estimate); a JSON number that is a whole number of at least 1
 * (`2` and `2.0` are the same JSON value). Strings such as "2" are refused: the spec types it as an
 * integer, both prediction clients send JSON numbers, and the multipart and octet-stream forms
 * convert their parts before this check. A count above what the diarizer can separate in the
 * recording is accepted and lowered when the diarizer runs, with a log line saying so
 * (pipeline/start-diarization.ts, docs/diarization.md).
 *
 * @returns the number of speakers, or null.
 * @throws AppError `invalid_input` (param `speakers`) for 0, negatives, fractions, infinities,
 *   strings, booleans, lists and objects.
 */
export function parseSpeakersParam(value: unknown): number | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw invalidInput('speakers', `speakers must be a whole number of at least 1, or null to estimate it; got ${describeValue(value)}.`);
  }
  return value;
}
