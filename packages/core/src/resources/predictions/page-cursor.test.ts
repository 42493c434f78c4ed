import { describe, expect, it } from 'vitest';
import { decodePageCursor, encodePageCursor, toPage } from './page-cursor.ts';

const rows = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `id${'abcdefghijklmnopqrstuvwxyz'[index % 26]}` }));

describe('page cursors', () => {
  it('should round-trip a cursor and refuse strings it did not make', () => {
    const cursor = { direction: 'previous', id: 'abc234' } as const;
    expect(decodePageCursor(encodePageCursor(cursor))).toEqual(cursor);
    expect(decodePageCursor(undefined)).toBeNull();
    expect(decodePageCursor('')).toBeNull();
    for (const bad of ['!!', Buffer.from('x:abc').toString('base64url'), Buffer.from('n:ABC').toString('base64url'), ['a']]) {
      expect(() => decodePageCursor(bad)).toThrow(/cursor is not valid/);
    }
  });

  it('should link only to pages that exist', () => {
    const first = toPage(rows(4), null, 3);
    expect(first.rows).toHaveLength(3);
    expect(decodePageCursor(first.next)).toEqual({ direction: 'next', id: 'idc' });
    expect(first.previous).toBeNull();
    const last = toPage(rows(2), { direction: 'next', id: 'x' }, 3);
    expect(last.next).toBeNull();
    expect(decodePageCursor(last.previous)).toEqual({ direction: 'previous', id: 'ida' });
  });

  it('should put a previous page back in newest-first order', () => {
    const page = toPage(rows(4), { direction: 'previous', id: 'x' }, 3);
    expect(page.rows.map((row) => row.id)).toEqual(['idc', 'idb', 'ida']);
    expect(decodePageCursor(page.previous)).toEqual({ direction: 'previous', id: 'idc' });
    expect(decodePageCursor(page.next)).toEqual({ direction: 'next', id: 'ida' });
  });
});
