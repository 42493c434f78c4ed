import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { mediaCache } from '../../platform/db/schema.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';
import { purgeExpiredFiles } from '../files/purge-expired-files.ts';
import { forgetCachedMedia } from './resolve-cached-media.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes expired stored downloads (their transcripts go with them; objects from `store`, the local
 * files by default) and upload files older than the cache lifetime, so disk use stays bounded.
 * Returns how many entries and files went.
 */
export async function sweepExpiredCache(db: Db, dataDir: string, ttlDays: number, now = new Date(), store?: MediaStore) {
  const files = await purgeExpiredFiles(db, now);
  const expired = await db.select({ id: mediaCache.id, path: mediaCache.path }).from(mediaCache).where(lt(mediaCache.expiresAt, now));
  for (const row of expired) await forgetCachedMedia(db, row, store);
  let uploads = 0;
  const uploadDir = join(dataDir, 'uploads');
  const names = await readdir(uploadDir).catch(() => [] as string[]);
  for (const name of names) {
    const path = join(uploadDir, name);
    const info = await stat(path).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > ttlDays * DAY_MS) {
      await rm(path, { force: true });
      uploads += 1;
    }
  }
  return { mediaEntries: expired.length, uploads, files };
}
