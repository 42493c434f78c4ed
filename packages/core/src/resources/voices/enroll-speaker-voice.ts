import { and, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import { voices, type VoiceRow } from '../../platform/db/schema.ts';
import { MIN_SAMPLE_SPEECH_SECONDS } from '../../contract/validation/known-voices-schema.ts';
import { addToEmbeddings, type SpeechEmbedding } from '../../pipeline/voices/voice-embedding.ts';
import type { ServiceContext } from '../../service-context.ts';
import { checkVoiceRoom, insertVoice } from './create-voice.ts';

/**
 * Stores a speaker measured in a transcribed recording (measureTranscriptSpeakers) under a name in the
 * account's registry (docs/speakers.md, the bot's "Name speakers"): a voice of that name the account
 * already has gets the embeddings added to its sums (as `POST /v1/voices/{id}/samples` adds a sample's),
 * otherwise a new voice is enrolled with them (as `POST /v1/voices`, same room check). No audio is stored.
 * @param request.name already validated (voiceNameSchema).
 * @param request.speechSeconds seconds of speech the embeddings came from.
 * @returns the stored row and whether an existing voice grew (`added`) or a new one was made.
 * @throws AppError `invalid_input` (param `samples`) when the speaker holds under
 *   MIN_SAMPLE_SPEECH_SECONDS of speech or no embedding; `conflict` (409) when the account already
 *   holds VOICES_PER_ACCOUNT voices.
 */
export async function enrollSpeakerVoice(
  ctx: ServiceContext,
  request: { account: string; name: string; embeddings: readonly SpeechEmbedding[]; speechSeconds: number },
): Promise<{ row: VoiceRow; added: boolean }> {
  if (request.embeddings.length === 0 || request.speechSeconds < MIN_SAMPLE_SPEECH_SECONDS) {
    throw new AppError(
      'invalid_input',
      `This speaker holds ${request.speechSeconds.toFixed(1)} s of speech, and a voice needs at least ${MIN_SAMPLE_SPEECH_SECONDS} s.`,
      { param: 'samples' },
    );
  }
  const db = ctx.database.db;
  const grown = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(voices)
      .where(and(eq(voices.account, request.account), eq(voices.name, request.name)))
      .for('update');
    if (!current) return null;
    const [row] = await tx
      .update(voices)
      .set({
        embeddings: addToEmbeddings(current.embeddings, request.embeddings),
        speechSeconds: Math.round((current.speechSeconds + request.speechSeconds) * 1000) / 1000,
        samples: current.samples + 1,
        updatedAt: new Date(),
      })
      .where(eq(voices.id, current.id))
      .returning();
    return row ?? null;
  });
  if (grown) return { row: grown, added: true };
  await checkVoiceRoom(ctx, request.account, request.name);
  const embeddings = addToEmbeddings({}, request.embeddings);
  const row = await insertVoice(db, { ...request, embeddings, samples: 1 });
  return { row, added: false };
}
