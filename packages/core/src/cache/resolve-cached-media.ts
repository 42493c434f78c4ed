import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/open-database.ts';
import { mediaCache, type MediaCacheRow } from '../db/schema.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The stored download for a link in a namespace (spec 2.6.1, 2.6.6), or null when there is none, it
 * expired, or its file is missing or changed size (damaged, spec 2.6.5). A bad entry is removed
 * (its transcript goes with it), so the caller downloads again under a new file handle.
 */
export async function findCachedMedia(db: Db, namespace: string, link: string, now = new Date()): Promise<MediaCacheRow | null> {
  const [row] = await db
    .select()
    .from(mediaCache)
    .where(and(eq(mediaCache.namespace, namespace), eq(mediaCache.link, link)))
    .limit(1);
  if (!row) return null;
  const size = await stat(row.path).then((s) => s.size, () => -1);
  if (row.expiresAt > now && size === row.bytes) return row;
  await forgetCachedMedia(db, row);
  return null;
}

/** Deletes a stored download and its transcript (a damaged or expired record, spec 2.6.5). */
export async function forgetCachedMedia(db: Db, row: Pick<MediaCacheRow, 'id' | 'path'>): Promise<void> {
  await db.delete(mediaCache).where(eq(mediaCache.id, row.id));
  await rm(row.path, { force: true });
}

/**
 * Moves a fresh download into `dataDir/media/` under a new file handle and records it for the
 * namespace and link (spec 2.6.5; a damaged or expired entry was removed before, by
 * findCachedMedia or the caller). When a concurrent request stored the same link first, its entry
 * wins and this copy is dropped, so a file another prediction is reading is never deleted.
 */
export async function storeDownloadedMedia(
  db: Db,
  options: { dataDir: string; namespace: string; link: string; downloadedPath: string; bytes: number; ttlDays: number },
): Promise<MediaCacheRow> {
  const id = `med_${randomBytes(12).toString('hex')}`;
  const dir = join(options.dataDir, 'media');
  await mkdir(dir, { recursive: true });
  const path = join(dir, id);
  await rename(options.downloadedPath, path);
  const expiresAt = new Date(Date.now() + options.ttlDays * DAY_MS);
  const [row] = await db
    .insert(mediaCache)
    .values({ id, namespace: options.namespace, link: options.link, path, bytes: options.bytes, expiresAt })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  // A concurrent request stored the same link first: use its entry and drop this copy.
  await rm(path, { force: true });
  const [winner] = await db
    .select()
    .from(mediaCache)
    .where(and(eq(mediaCache.namespace, options.namespace), eq(mediaCache.link, options.link)));
  if (!winner) throw new Error('media_cache entry vanished during a concurrent store');
  return winner;
}
