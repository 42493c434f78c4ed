import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { MediaStore } from './media-store.ts';

/**
 * The media store in a local directory (`DATA_DIR/media` by default). A file is stored by moving it
 * (rename, same file system as the work directory under DATA_DIR) to `dir/<id>`; its location is
 * that absolute path, which is also the path to read it from. `size`, `open` and `remove` accept
 * any absolute path, so entries stored under an earlier DATA_DIR layout keep working.
 */
export function createLocalMediaStore(dir: string): MediaStore {
  return {
    kind: 'local',
    description: dir,
    async put(id, localPath) {
      await mkdir(dir, { recursive: true });
      const location = join(dir, id);
      await rename(localPath, location);
      return { location, readablePath: location };
    },
    size: (location) =>
      stat(location).then(
        (info) => info.size,
        () => null,
      ),
    async open(location) {
      await stat(location); // throws ENOENT for a missing file
      return location;
    },
    remove: (location) => rm(location, { force: true }),
  };
}
