import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpiredCache } from './sweep-expired-cache.ts';
import { openDatabase, type Database } from '../../platform/db/open-database.ts';
import { mediaCache } from '../../platform/db/schema.ts';
import { createS3MediaStore } from '../../platform/storage/s3-media-store.ts';
import { startS3Server, type S3Server } from '../../platform/storage/test-support/start-s3-server.ts';

describe('the cache sweeper with the S3 media store', () => {
  let s3: S3Server;
  let database: Database;
  let dir: string;

  beforeAll(async () => {
    s3 = await startS3Server({ buckets: ['media'], accessKeyId: 'sweeper' });
    dir = await mkdtemp(join(tmpdir(), 'sweep-s3-'));
    database = await openDatabase({ pgliteDir: join(dir, 'pglite') });
  });

  afterAll(async () => {
    await database?.close();
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should delete the objects of expired entries from the bucket and keep the live ones', async () => {
    const store = createS3MediaStore({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      accessKeyId: 'sweeper',
      secretAccessKey: 'secret',
    });
    s3.objects.set('media/med_old', Buffer.from('old'));
    s3.objects.set('media/med_new', Buffer.from('new'));
    const day = 24 * 3600 * 1000;
    await database.db.insert(mediaCache).values([
      {
        id: 'med_old',
        namespace: 'api',
        link: 'https://example.invalid/old.wav',
        path: 's3://media/med_old',
        bytes: 3,
        expiresAt: new Date(Date.now() - day),
      },
      {
        id: 'med_new',
        namespace: 'api',
        link: 'https://example.invalid/new.wav',
        path: 's3://media/med_new',
        bytes: 3,
        expiresAt: new Date(Date.now() + day),
      },
    ]);
    const swept = await sweepExpiredCache(database.db, dir, 27, new Date(), store);
    expect(swept.mediaEntries).toBe(1);
    expect([...s3.objects.keys()]).toEqual(['media/med_new']);
    expect(await database.db.select({ id: mediaCache.id }).from(mediaCache).where(eq(mediaCache.id, 'med_old'))).toEqual([]);
  });
});
