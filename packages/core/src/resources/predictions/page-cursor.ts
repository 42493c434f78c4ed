import { sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { AppError } from '../../platform/errors/app-error.ts';

/** Rows per page of a list (Replicate lists 100 per page, replicate-compat.md 8). */
export const PAGE_SIZE = 100;

/** Which side of the anchor row a page lies on: `next` = older rows, `previous` = newer rows. */
export interface PageCursor {
  direction: 'next' | 'previous';
  /** Id of the anchor row (the last row of the page before, or the first row of the page after). */
  id: string;
}

/** One page of rows, newest first, and the cursors of its neighbours (null when there is none). */
export interface Page<Row> {
  rows: Row[];
  next: string | null;
  previous: string | null;
}

/** Encodes a cursor as an opaque URL-safe string (base64url of `n:<id>` or `p:<id>`). */
export function encodePageCursor(cursor: PageCursor): string {
  return Buffer.from(`${cursor.direction === 'next' ? 'n' : 'p'}:${cursor.id}`).toString('base64url');
}

/**
 * Decodes the `cursor` query parameter of a list request.
 * @returns null for an absent or empty cursor (the first page).
 * @throws AppError `invalid_input` (param `cursor`, HTTP 422) for a value this service did not make.
 */
export function decodePageCursor(value: unknown): PageCursor | null {
  if (value === undefined || value === null || value === '') return null;
  const text = typeof value === 'string' && /^[A-Za-z0-9_-]{1,200}$/.test(value) ? Buffer.from(value, 'base64url').toString() : '';
  const match = /^([np]):([a-z2-7]{1,64})$/.exec(text);
  if (!match) {
    throw new AppError('invalid_input', 'cursor is not valid: use the "next" or "previous" URL of a list response as it is.', {
      param: 'cursor',
    });
  }
  return { direction: match[1] === 'n' ? 'next' : 'previous', id: match[2] as string };
}

/**
 * The SQL condition selecting rows beyond the cursor's anchor in the order (created_at, id): older
 * for `next`, newer for `previous`. The anchor's timestamp is read inside the database, so no
 * microseconds are lost in the cursor; an anchor of another key or a missing one matches no row.
 */
export function beyondCursor(
  table: PgTable,
  columns: { createdAt: AnyColumn; id: AnyColumn; apiKeyId: AnyColumn },
  cursor: PageCursor,
  apiKeyId: string,
): SQL {
  const anchor = sql`(select a.${sql.identifier(columns.createdAt.name)}, a.${sql.identifier(columns.id.name)} from ${table} a
    where a.${sql.identifier(columns.id.name)} = ${cursor.id} and a.${sql.identifier(columns.apiKeyId.name)} = ${apiKeyId})`;
  return cursor.direction === 'next'
    ? sql`(${columns.createdAt}, ${columns.id}) < ${anchor}`
    : sql`(${columns.createdAt}, ${columns.id}) > ${anchor}`;
}

/**
 * Turns the `PAGE_SIZE + 1` rows fetched in cursor order into a page, newest first, with the
 * cursors of the pages around it.
 */
export function toPage<Row extends { id: string }>(fetched: Row[], cursor: PageCursor | null, pageSize = PAGE_SIZE): Page<Row> {
  const more = fetched.length > pageSize;
  const rows = fetched.slice(0, pageSize);
  const backwards = cursor?.direction === 'previous';
  if (backwards) rows.reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  const hasOlder = backwards ? cursor !== null : more;
  const hasNewer = backwards ? more : cursor !== null;
  return {
    rows,
    next: hasOlder && last ? encodePageCursor({ direction: 'next', id: last.id }) : null,
    previous: hasNewer && first ? encodePageCursor({ direction: 'previous', id: first.id }) : null,
  };
}
