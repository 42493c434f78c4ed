import { and, count, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { voices, type VoiceRow } from '../../platform/db/schema.ts';
import type { VoiceEmbeddings } from '../../pipeline/voices/voice-embedding.ts';
import { newPredictionId } from '../predictions/new-prediction-id.ts';

/**
 * Checks that an account may enroll a voice named `name`: it holds fewer than `most` voices and none of
 * that name.
 * @throws AppError `conflict` (409) when the account is full or the name is taken.
 */
export async function checkVoiceRoom(db: Db, account: string, name: string, most: number): Promise<void> {
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
  if (same) throw voiceNameTaken(name);
}

/**
 * Stores a new voice of `account` as its embeddings only (the registry keeps no audio).
 * @param voice.speechSeconds seconds of speech the embeddings came from; `samples` how many samples.
 * @returns the stored row.
 * @throws AppError `conflict` when the account already has a voice of that name (a race past checkVoiceRoom).
 */
export async function insertVoice(
  db: Db,
  voice: { account: string; name: string; embeddings: VoiceEmbeddings; speechSeconds: number; samples: number },
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
        speechSeconds: Math.round(voice.speechSeconds * 1000) / 1000,
        samples: voice.samples,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!row) throw new Error('insert into voices returned no row');
    return row;
  } catch (error) {
    if (isUniqueViolation(error)) throw voiceNameTaken(voice.name);
    throw error;
  }
}

function voiceNameTaken(name: string): AppError {
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
