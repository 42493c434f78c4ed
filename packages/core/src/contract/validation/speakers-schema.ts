/** Spec 2.2 / 8 `speakers`: the expected number of speakers. */
import { z } from 'zod';
import { describeValue } from './invalid-input.ts';

/**
 * The zod schema of `speakers` (spec 8: "integer >= 1"; no upper bound is set there, so none is set here).
 *
 * Accepted: absent or null → null (estimate); a JSON number that is a whole number of at least 1
 * (`2` and `2.0` are the same JSON value; any size, so not zod's safe-integer `int()`). Strings such
 * as "2" are refused: the spec types it as an integer, both prediction clients send JSON numbers, and
 * the multipart and octet-stream forms convert their parts before this check. A count above what the
 * diarizer can separate in the recording is accepted and lowered when the diarizer runs, with a log
 * line saying so (pipeline/start-diarization.ts, docs/diarization.md).
 *
 * @returns a schema whose output is the number of speakers or null; every issue (0, negatives,
 *   fractions, strings, booleans, lists, objects) carries the one detail of this parameter.
 */
export function speakersSchema() {
  const error = (issue: { input?: unknown }) =>
    `speakers must be a whole number of at least 1, or null to estimate it; got ${describeValue(issue.input)}.`;
  return z
    .number({ error })
    .min(1, { error })
    .refine((count) => Number.isInteger(count), { error })
    .meta({ type: 'integer', description: 'Expected number of speakers.' })
    .nullish()
    .transform((count) => count ?? null);
}
