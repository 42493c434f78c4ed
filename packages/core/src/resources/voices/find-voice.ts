import { and, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { voices, type VoiceRow } from '../../platform/db/schema.ts';

/**
 * One voice of one account. Another account's voice is reported as missing, never as forbidden, as
 * for predictions (spec 5), so ids of others cannot be probed.
 * @throws AppError `not_found` (HTTP 404).
 */
export async function findVoice(db: Db, id: string, account: string): Promise<VoiceRow> {
  const [row] = await db
    .select()
    .from(voices)
    .where(and(eq(voices.id, id), eq(voices.account, account)))
    .limit(1);
  if (!row) throw new AppError('not_found', `No voice with id ${id.slice(0, 64)} exists for this account.`);
  return row;
}
