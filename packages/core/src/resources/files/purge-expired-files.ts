import { rm } from 'node:fs/promises';
import { lte } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { files } from '../../platform/db/schema.ts';

/**
 * Deletes files whose lifetime ended (rows and stored content). Predictions made from a file keep
 * their own link to the content (use-file-as-upload.ts), so they are not affected.
 * @param now the current time (for tests).
 * @returns how many files were removed.
 */
export async function purgeExpiredFiles(db: Db, now = new Date()): Promise<number> {
  const removed = await db.delete(files).where(lte(files.expiresAt, now)).returning({ path: files.path });
  await Promise.all(removed.map((row) => rm(row.path, { force: true })));
  return removed.length;
}
