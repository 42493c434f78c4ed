import { and, eq, gt } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { files, type FileRow } from '../../platform/db/schema.ts';

/**
 * Reads one unexpired file of one key. Another key's file is reported as missing, never as
 * forbidden, like predictions.
 * @throws AppError `not_found` (HTTP 404).
 */
export async function findFile(db: Db, id: string, apiKeyId: string): Promise<FileRow> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), eq(files.apiKeyId, apiKeyId), gt(files.expiresAt, new Date())))
    .limit(1);
  if (!row) {
    throw new AppError('not_found', `No file with id ${id.slice(0, 64)} exists for this API key (files are kept 24 hours after upload).`);
  }
  return row;
}
