import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Total size in bytes of the regular files under `folder`, recursively (symbolic links are not followed
 * and count as nothing). A file removed while walking counts as nothing.
 * @returns 0 when the folder does not exist.
 */
export async function measureFolderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  let total = 0;
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += await measureFolderBytes(full);
    else if (entry.isFile())
      total += await lstat(full).then(
        (info) => info.size,
        () => 0,
      );
  }
  return total;
}
