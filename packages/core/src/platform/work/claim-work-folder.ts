import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { currentProcessIdentity, type ProcessIdentity } from './process-identity.ts';

/** File in a work folder naming the process that works in it. */
export const OWNER_FILE = '.owner.json';

/**
 * Marks `folder` (it must exist) as used by this process, by writing `<folder>/.owner.json`
 * (pid, start time, host). At start-up a service removes work folders whose owner is no longer
 * running (sweep-work-folders.ts) and keeps those of live processes sharing DATA_DIR.
 * @throws the file system's error when the folder cannot be written.
 */
export async function claimWorkFolder(folder: string): Promise<void> {
  await writeFile(path.join(folder, OWNER_FILE), JSON.stringify(currentProcessIdentity()));
}

/**
 * The process that claimed `folder`.
 * @returns null when it has no readable owner file.
 */
export async function readWorkFolderOwner(folder: string): Promise<ProcessIdentity | null> {
  try {
    const owner = JSON.parse(await readFile(path.join(folder, OWNER_FILE), 'utf8')) as Partial<ProcessIdentity>;
    if (typeof owner.pid !== 'number' || typeof owner.host !== 'string') return null;
    return { pid: owner.pid, startTicks: String(owner.startTicks ?? ''), host: owner.host };
  } catch {
    return null;
  }
}
