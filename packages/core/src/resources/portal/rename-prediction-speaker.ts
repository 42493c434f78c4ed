import { eq, sql } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { predictions, type PredictionRow } from '../../platform/db/schema.ts';
import { invalidInput, describeValue } from '../../contract/validation/invalid-input.ts';
import { voiceNameSchema } from '../../contract/validation/known-voices-schema.ts';

/**
 * The name a speaker of a prediction's transcript may take in the portal: the voice-name rules
 * (voiceNameSchema: 1–64 characters once trimmed, no control characters, not `SPEAKER_2` or `A`),
 * and no other speaker of the transcript shown under the same name (two speakers would merge).
 * @param label a speaker label of the stored transcript (`SPEAKER_1`, or a name given by known voices).
 * @returns the trimmed name.
 * @throws AppError `not_found` while there is no transcript or it has no such speaker; `invalid_input`
 *   (param `name`) for a name breaking the rules or already shown for another speaker.
 */
export function checkSpeakerName(row: PredictionRow, label: string, name: unknown): string {
  const labels = (row.transcript?.speakers ?? []).map((speaker) => speaker.label);
  if (row.status !== 'succeeded' || !labels.includes(label)) {
    throw new AppError('not_found', `This transcript has no speaker ${describeValue(label)}.`);
  }
  const parsed = voiceNameSchema('name').safeParse(name);
  if (!parsed.success) throw invalidInput('name', parsed.error.issues[0]!.message);
  const shown = (other: string) => row.speakerNames?.[other] ?? other;
  if (labels.some((other) => other !== label && shown(other) === parsed.data)) {
    throw invalidInput('name', `Another speaker of this transcript is already called ${describeValue(parsed.data)}; choose another name.`);
  }
  return parsed.data;
}

/**
 * Renames a speaker of a prediction for the portal (docs/portal.md, "Speakers"): `predictions.speaker_names`
 * gains `label → name` (one atomic update, so renames of two speakers at once both stay); the page and
 * the portal's downloads show the name (renameTranscriptSpeakers). The stored transcript and the API's
 * output are unchanged.
 * @param name already checked with checkSpeakerName.
 * @returns the names of the prediction after the update.
 */
export async function renamePredictionSpeaker(db: Db, row: PredictionRow, label: string, name: string): Promise<Record<string, string>> {
  const [updated] = await db
    .update(predictions)
    .set({ speakerNames: sql`coalesce(${predictions.speakerNames}, '{}'::jsonb) || jsonb_build_object(${label}::text, ${name}::text)` })
    .where(eq(predictions.id, row.id))
    .returning({ speakerNames: predictions.speakerNames });
  return updated?.speakerNames ?? {};
}
