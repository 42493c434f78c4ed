import type { VoiceRow } from '../../platform/db/schema.ts';
import { addToEmbeddings } from '../../pipeline/voices/voice-embedding.ts';
import type { ServiceContext } from '../../service-context.ts';
import { discardVoiceSamples, measureVoiceSamples, type VoiceSampleSource } from './measure-voice-samples.ts';
import { DEFAULT_MAX_VOICES_PER_ACCOUNT } from './voice-account.ts';
import { checkVoiceRoom, insertVoice } from './insert-voice.ts';

/**
 * Enrolls a new voice (`POST /v1/voices`): checks the account's room and the name first (cheap), then
 * measures every sample (measureVoiceSamples: fetched, checked, embedded, the audio removed), then
 * stores the voice as its embeddings only.
 * @param request.name already validated (voiceNameSchema); unique within the account.
 * @returns the stored row and the seconds of speech used.
 * @throws AppError `conflict` (409) when the account already holds VOICES_PER_ACCOUNT voices or a voice
 *   of that name; the errors of measureVoiceSamples (422 refusals of samples, fetch errors).
 */
export async function createVoice(
  ctx: ServiceContext,
  request: { account: string; name: string; samples: readonly VoiceSampleSource[]; signal?: AbortSignal },
): Promise<VoiceRow> {
  const db = ctx.database.db;
  try {
    await checkVoiceRoom(db, request.account, request.name, ctx.config.maxVoicesPerAccount ?? DEFAULT_MAX_VOICES_PER_ACCOUNT);
  } catch (error) {
    await discardVoiceSamples(request.samples);
    throw error;
  }
  const measured = await measureVoiceSamples(ctx, request.samples, request.signal);
  const embeddings = addToEmbeddings(
    {},
    measured.flatMap((sample) => sample.embeddings),
  );
  const speechSeconds = Math.round(measured.reduce((sum, sample) => sum + sample.speechSeconds, 0) * 1000) / 1000;
  return insertVoice(db, { account: request.account, name: request.name, embeddings, speechSeconds, samples: measured.length });
}
