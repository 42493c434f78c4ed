import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { voices, type VoiceRow } from '../../platform/db/schema.ts';

/** Every voice of an account, oldest first (at most VOICES_PER_ACCOUNT, so one page). */
export async function listVoices(db: Db, account: string): Promise<VoiceRow[]> {
  return db.select().from(voices).where(eq(voices.account, account)).orderBy(asc(voices.createdAt), asc(voices.id));
}
