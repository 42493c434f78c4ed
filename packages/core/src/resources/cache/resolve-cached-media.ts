import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { mediaCache, type MediaCacheRow } from '../../platform/db/schema.ts';
import { createLocalMediaStore } from '../../platform/storage/local-media-store.ts';
import type { MediaStore } from '../../platform/storage/media-store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Reads and deletes entries by their absolute path (the locations of the local store). */
const LOCAL_FILES = createLocalMediaStore('/');

/**
 * The stored download for a link in a namespace (spec 2.6.1, 2.6.6), or null when there is none, it
 * expired, or its file is missing or changed size (damaged, spec 2.6.5). A bad entry is removed
 * (its transcript goes with it), so the caller downloads again under a new file handle.
 * `row.path` is the entry's location in `store` (read it with `store.open`).
 */
export async function findCachedMedia(
  db: Db,
  namespace: string,
  link: string,
  now = new Date(),
  store: MediaStore = LOCAL_FILES,
): Promise<MediaCacheRow | null> {
  const [row] = await db
    .select()
    .from(mediaCache)
    .where(and(eq(mediaCache.namespace, namespace), eq(mediaCache.link, link)))
    .limit(1);
  if (!row) return null;
  const size = await store.size(row.path);
  if (row.expiresAt > now && size === row.bytes) return row;
  await forgetCachedMedia(db, row, store);
  return null;
}

/** Deletes a stored download and its transcript (a damaged or expired record, spec 2.6.5). */
export async function forgetCachedMedia(db: Db, row: Pick<MediaCacheRow, 'id' | 'path'>, store: MediaStore = LOCAL_FILES): Promise<void> {
  await db.delete(mediaCache).where(eq(mediaCache.id, row.id));
  await store.remove(row.path);
}

/**
 * Puts a fresh download into the media store (`dataDir/media/` by default, or S3) under a new file
 * handle and records it for the namespace and link (spec 2.6.5; a damaged or expired entry was
 * removed before, by findCachedMedia or the caller). When a concurrent request stored the same link
 * first, its entry wins and this copy is dropped, so a file another prediction is reading is never
 * deleted. `fetchedBy` is the user whose download this is (billing's payingUserOf): only that user
 * is given the entry without checking that the link still answers (resources/predictions/run/produce-transcript.ts).
 * @returns the entry (`path` = its location in the store) and `readablePath`, a local file to read
 *   for this run: the stored file (local store), the download itself (S3), or null when the
 *   winner's entry came from a concurrent request (read it with `store.open`).
 * @throws Error from the store when it cannot take the file.
 */
export async function storeDownloadedMedia(
  db: Db,
  options: {
    store: MediaStore;
    namespace: string;
    link: string;
    downloadedPath: string;
    bytes: number;
    ttlDays: number;
    fetchedBy: string;
  },
): Promise<{ row: MediaCacheRow; readablePath: string | null }> {
  const id = `med_${randomBytes(12).toString('hex')}`;
  const { location, readablePath } = await options.store.put(id, options.downloadedPath, options.bytes);
  const expiresAt = new Date(Date.now() + options.ttlDays * DAY_MS);
  const [row] = await db
    .insert(mediaCache)
    .values({
      id,
      namespace: options.namespace,
      link: options.link,
      path: location,
      bytes: options.bytes,
      fetchedBy: options.fetchedBy,
      expiresAt,
    })
    .onConflictDoNothing()
    .returning();
  if (row) return { row, readablePath };
  // A concurrent request stored the same link first: use its entry and drop this copy.
  await options.store.remove(location);
  const [winner] = await db
    .select()
    .from(mediaCache)
    .where(and(eq(mediaCache.namespace, options.namespace), eq(mediaCache.link, options.link)));
  if (!winner) throw new Error('media_cache entry vanished during a concurrent store');
  return { row: winner, readablePath: null };
}
