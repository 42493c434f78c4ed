import { and, asc, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../../platform/db/open-database.ts';
import { files, type FileRow } from '../../platform/db/schema.ts';
import { beyondCursor, decodePageCursor, PAGE_SIZE, toPage, type Page } from '../predictions/page-cursor.ts';

/**
 * One page of a key's unexpired files, newest first (`GET /v1/files`), 100 per page, with opaque
 * cursors for the older (`next`) and newer (`previous`) pages.
 * @throws AppError `invalid_input` (param `cursor`) for a cursor this service did not make.
 */
export async function listFiles(db: Db, apiKeyId: string, cursorParam: unknown, pageSize = PAGE_SIZE): Promise<Page<FileRow>> {
  const cursor = decodePageCursor(cursorParam);
  const own = and(eq(files.apiKeyId, apiKeyId), gt(files.expiresAt, new Date()));
  const where = cursor ? and(own, beyondCursor(files, files, cursor, apiKeyId)) : own;
  const order = cursor?.direction === 'previous' ? [asc(files.createdAt), asc(files.id)] : [desc(files.createdAt), desc(files.id)];
  const fetched = await db
    .select()
    .from(files)
    .where(where)
    .orderBy(...order)
    .limit(pageSize + 1);
  return toPage(fetched, cursor, pageSize);
}
