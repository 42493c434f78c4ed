import { and, count, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { voices, type VoiceRow, type VoiceSourceSpan } from '../../platform/db/schema.ts';
import { addToEmbeddings, type VoiceEmbeddings } from '../../pipeline/voices/voice-embedding.ts';
import { newPredictionId } from '../predictions/new-prediction-id.ts';
import type { ServiceContext } from '../../service-context.ts';
import { discardVoiceSamples, measureVoiceSamples, type VoiceSampleSource } from './measure-voice-samples.ts';
import { DEFAULT_MAX_VOICES_PER_ACCOUNT } from './voice-account.ts';

/**
 * Enrolls a new voice (`POST /v1/voices`): checks the account's room and the name first (cheap), then
 * measures every sample (measureVoiceSamples: fetched, checked, embedded, the audio removed), then
 * stores the voice as its embeddings only.
 * @param request.name already validated (voiceNameSchema); unique within the account.
 * @param request.source when the sample was cut from a stored recording (the portal's "remember this
 *   voice"): the prediction and the spans of its recording, kept as a reference only (no audio).
 * @returns the stored row and the seconds of speech used.
 * @throws AppError `conflict` (409) when the account already holds VOICES_PER_ACCOUNT voices or a voice
 *   of that name; the errors of measureVoiceSamples (422 refusals of samples, fetch errors).
 */
export async function createVoice(
  ctx: ServiceContext,
  request: {
    account: string;
    name: string;
    samples: readonly VoiceSampleSource[];
    source?: { predictionId: string; spans: VoiceSourceSpan[] };
    signal?: AbortSignal;
  },
): Promise<VoiceRow> {
  const db = ctx.database.db;
  try {
    await checkVoiceRoom(ctx, request.account, request.name);
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
  return insertVoice(db, {
    account: request.account,
    name: request.name,
    embeddings,
    speechSeconds,
    samples: measured.length,
    source: request.source,
  });
}

/**
 * Stores a new voice of `account` as its embeddings only (createVoice; the bot's enrollSpeakerVoice).
 * @param voice.speechSeconds seconds of speech the embeddings came from; `samples` how many samples;
 *   `source` the prediction and spans the sample was cut from (a reference only), when it was.
 * @returns the stored row.
 * @throws AppError `conflict` when the account already has a voice of that name (a race past checkVoiceRoom).
 */
export async function insertVoice(
  db: Db,
  voice: {
    account: string;
    name: string;
    embeddings: VoiceEmbeddings;
    speechSeconds: number;
    samples: number;
    source?: { predictionId: string; spans: VoiceSourceSpan[] } | undefined;
  },
): Promise<VoiceRow> {
  const now = new Date();
  try {
    const [row] = await db
      .insert(voices)
      .values({
        id: `voice_${newPredictionId()}`,
        account: voice.account,
        name: voice.name,
        embeddings: voice.embeddings,
        speechSeconds: voice.speechSeconds,
        samples: voice.samples,
        sourcePredictionId: voice.source?.predictionId ?? null,
        sourceSpans: voice.source?.spans ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('insert into voices returned no row');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(voice.name);
    throw error;
  }
}

/**
 * Whether `account` may enroll a voice named `name`: it holds fewer than VOICES_PER_ACCOUNT voices
 * (default DEFAULT_MAX_VOICES_PER_ACCOUNT) and none of that name. Cheap: callers check it before any
 * audio work (createVoice, rememberPredictionVoice).
 * @throws AppError `conflict` (409) when the account is full or the name is taken.
 */
export async function checkVoiceRoom(ctx: ServiceContext, account: string, name: string): Promise<void> {
  const db: Db = ctx.database.db;
  const most = ctx.config.maxVoicesPerAccount ?? DEFAULT_MAX_VOICES_PER_ACCOUNT;
  const [held] = await db.select({ n: count() }).from(voices).where(eq(voices.account, account));
  if ((held?.n ?? 0) >= most) {
    throw new AppError(
      'conflict',
      `This account already holds ${most} voices, the most allowed; delete one (DELETE /v1/voices/{id}) before enrolling another.`,
      { param: 'name' },
    );
  }
  const [same] = await db
    .select({ id: voices.id })
    .from(voices)
    .where(and(eq(voices.account, account), eq(voices.name, name)))
    .limit(1);
  if (same) throw nameTaken(name);
}

function nameTaken(name: string): AppError {
  return new AppError(
    'conflict',
    `A voice named ${JSON.stringify(name.slice(0, 64))} already exists; add samples to it (POST /v1/voices/{id}/samples) or choose another name.`,
    { param: 'name' },
  );
}

/** PostgreSQL's unique_violation (23505), from the postgres driver or PGlite, possibly wrapped by drizzle. */
function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error || (typeof e === 'object' && e !== null); e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
    if ((e as { cause?: unknown }).cause === undefined) break;
  }
  return false;
}
