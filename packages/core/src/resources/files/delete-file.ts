import { rm } from 'node:fs/promises';
import { and, eq } from 'drizzle-orm';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Db } from '../../platform/db/open-database.ts';
import { files } from '../../platform/db/schema.ts';

/**
 * Deletes one file of one key (`DELETE /v1/files/{id}`): its row and stored content. Predictions
 * already made from it keep their own link to the content.
 * @throws AppError `not_found` when the key has no such file.
 */
export async function deleteFile(db: Db, id: string, apiKeyId: string): Promise<void> {
  const [row] = await db
    .delete(files)
    .where(and(eq(files.id, id), eq(files.apiKeyId, apiKeyId)))
    .returning({ path: files.path });
  if (!row) throw new AppError('not_found', `No file with id ${id.slice(0, 64)} exists for this API key.`);
  await rm(row.path, { force: true });
}
