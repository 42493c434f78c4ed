/**
 * `drop_flagged`: a service extension of the creation input (not in spec 2.2, whose clients never
 * send it: spec 2.2 ignores unknown parameters, so clients that do not know it are unaffected).
 * `true` leaves out of the transcript every segment the service flagged as doubtful
 * (docs/formats.md, "Flags"); absent, null or `false` keeps and labels them.
 */
import { z } from 'zod';
import { describeValue } from './invalid-input.ts';

/**
 * The zod schema of `drop_flagged`: absent or null → false; else a JSON boolean. Strings such as
 * "true" are refused (multipart parts are converted before this check, apps/api/src/http/form-fields-to-input.ts).
 * @returns a schema whose output is the boolean; its issue names the value sent.
 */
export function dropFlaggedSchema() {
  return z
    .boolean({ error: (issue) => `drop_flagged must be true, false or null; got ${describeValue(issue.input)}.` })
    .nullish()
    .transform((drop) => drop ?? false);
}
