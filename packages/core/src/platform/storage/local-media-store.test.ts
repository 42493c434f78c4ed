import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalMediaStore } from './local-media-store.ts';
import { mediaStoreOf } from './configured-media-store.ts';

describe('the local media store', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-store-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('should move the file into its directory under the handle and read, size and delete it there', async () => {
    const source = join(dir, 'download');
    await writeFile(source, 'recording');
    const store = createLocalMediaStore(join(dir, 'media'));
    const { location, readablePath } = await store.put('med_1', source, 9);
    expect(location).toBe(join(dir, 'media', 'med_1'));
    expect(readablePath).toBe(location);
    await expect(stat(source)).rejects.toThrow();
    expect(await store.size(location)).toBe(9);
    expect(await readFile(await store.open(location, join(dir, 'unused')), 'utf8')).toBe('recording');
    await store.remove(location);
    expect(await store.size(location)).toBeNull();
    await expect(store.open(location, join(dir, 'unused'))).rejects.toThrow(/ENOENT/);
    await store.remove(location); // a missing file is fine
  });

  it('should be the default store, in DATA_DIR/media, when none is configured', () => {
    expect(mediaStoreOf({ dataDir: '/srv/data' }).description).toBe('/srv/data/media');
    const configured = createLocalMediaStore('/elsewhere');
    expect(mediaStoreOf({ dataDir: '/srv/data', mediaStore: configured })).toBe(configured);
  });
});
