import { and, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { voices } from '../../platform/db/schema.ts';

/**
 * Deletes a voice at once (`DELETE /v1/voices/{id}`): its row is all the registry keeps of it (its
 * embeddings; no audio is ever stored), so nothing of the voiceprint remains.
 * @throws AppError `not_found` when the account has no such voice.
 */
export async function deleteVoice(db: Db, id: string, account: string): Promise<void> {
  const deleted = await db
    .delete(voices)
    .where(and(eq(voices.id, id), eq(voices.account, account)))
    .returning({ id: voices.id });
  if (deleted.length === 0) throw new AppError('not_found', `No voice with id ${id.slice(0, 64)} exists for this account.`);
}
