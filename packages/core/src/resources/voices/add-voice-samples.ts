import { and, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import { voices, type VoiceRow } from '../../platform/db/schema.ts';
import { addToEmbeddings } from '../../pipeline/voices/voice-embedding.ts';
import type { ServiceContext } from '../../service-context.ts';
import { findVoice } from './find-voice.ts';
import { discardVoiceSamples, measureVoiceSamples, type VoiceSampleSource } from './measure-voice-samples.ts';

/**
 * Adds samples to a voice (`POST /v1/voices/{id}/samples`): each measured as at enrollment, its
 * embeddings added to the stored sums (addToEmbeddings), the audio removed.
 * @returns the updated row and the seconds of speech the new samples gave.
 * @throws AppError `not_found` (another account's or no such voice; checked before any sample is
 *   fetched), the errors of measureVoiceSamples.
 */
export async function addVoiceSamples(
  ctx: ServiceContext,
  request: { account: string; id: string; samples: readonly VoiceSampleSource[]; signal?: AbortSignal },
): Promise<{ row: VoiceRow; addedSeconds: number }> {
  const db = ctx.database.db;
  try {
    await findVoice(db, request.id, request.account);
  } catch (error) {
    await discardVoiceSamples(request.samples);
    throw error;
  }
  const measured = await measureVoiceSamples(ctx, request.samples, request.signal);
  const addedSeconds = Math.round(measured.reduce((sum, sample) => sum + sample.speechSeconds, 0) * 1000) / 1000;
  return db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(voices)
      .where(and(eq(voices.id, request.id), eq(voices.account, request.account)))
      .for('update');
    if (!current) throw new AppError('not_found', `No voice with id ${request.id.slice(0, 64)} exists for this account.`);
    const [row] = await tx
      .update(voices)
      .set({
        embeddings: addToEmbeddings(
          current.embeddings,
          measured.flatMap((sample) => sample.embeddings),
        ),
        speechSeconds: Math.round((current.speechSeconds + addedSeconds) * 1000) / 1000,
        samples: current.samples + measured.length,
        updatedAt: new Date(),
      })
      .where(eq(voices.id, current.id))
      .returning();
    return { row: row!, addedSeconds };
  });
}
