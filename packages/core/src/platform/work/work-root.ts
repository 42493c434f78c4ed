import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { claimWorkFolder } from './claim-work-folder.ts';

let root: string | null = null;

/**
 * Sets the folder under which this process makes its scratch folders (makeWorkFolder): the service
 * sets `DATA_DIR/work` at start-up (sweep-work-folders.ts), so that scratch files are on the data disk,
 * claimed, and swept after a crash instead of piling up in /tmp. null goes back to the system's temporary folder.
 */
export function setWorkRoot(folder: string | null): void {
  root = folder;
}

/**
 * Makes a new claimed scratch folder `<root>/<prefix>XXXXXX` (root: setWorkRoot's, else the system's
 * temporary folder, as in tests that use an engine alone). The caller removes it when done.
 * @returns the folder's absolute path.
 * @throws the file system's error.
 */
export async function makeWorkFolder(prefix: string): Promise<string> {
  const parent = root ?? tmpdir();
  await mkdir(parent, { recursive: true });
  const folder = await mkdtemp(path.join(parent, prefix));
  await claimWorkFolder(folder);
  return folder;
}
