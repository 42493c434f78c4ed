import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { readWorkFolderOwner } from './claim-work-folder.ts';
import { currentProcessIdentity, isProcessAlive, readProcess } from './process-identity.ts';
import { CHILDREN_FOLDER, type ChildRecord } from './track-child-process.ts';
import { setWorkRoot } from './work-root.ts';

/** What a sweep did. */
export interface WorkSweep {
  /** Work folders removed (their owner is gone). */
  removedFolders: string[];
  /** Pids of leftover children (pocketsphinx_batch, ffmpeg) killed with their process groups. */
  killedPids: number[];
}

/**
 * Start-up clean-up after a crash, then makes `root` (`DATA_DIR/work`) this process's work root
 * (work-root.ts). A service killed with SIGKILL leaves its work folders (decoded WAVs, partial
 * transcripts) and its children: `pocketsphinx_batch` and ffmpeg run on as orphans, so the retried
 * prediction would share the CPU with a dead run. For every folder under `root` whose owner
 * (claim-work-folder.ts) is no longer running, or that has no owner when `soleOwner` is set, each child
 * recorded in its `.children/` is killed with its process group (only when the process with that pid
 * still has the recorded start time and its command line names the recorded program, so a reused pid is
 * never hit), then the folder is removed. Folders of live processes that share DATA_DIR are kept.
 * @param options.soleOwner true when no other process can use this DATA_DIR (embedded PGlite: the
 *   service lock of service-lock.ts), so that folders without an owner file are stale too.
 * @param options.logger where a sweep that found something says so (component `work`, a warning:
 *   it means the last stop was unclean).
 * @returns what was removed and killed.
 * @throws the file system's error when `root` cannot be created or read.
 */
export async function prepareWorkRoot(root: string, options: { soleOwner: boolean; logger: Pick<Logger, 'warn'> }): Promise<WorkSweep> {
  await mkdir(root, { recursive: true });
  const sweep = await sweepWorkFolders(root, options);
  setWorkRoot(root);
  if (sweep.removedFolders.length + sweep.killedPids.length > 0) {
    const message = `after an unclean stop: removed ${sweep.removedFolders.length} work folder(s), killed ${sweep.killedPids.length} leftover process(es)`;
    options.logger.warn({ component: 'work', removed_folders: sweep.removedFolders.length, killed_pids: sweep.killedPids }, message);
  }
  return sweep;
}

/**
 * The sweep of prepareWorkRoot without setting the work root.
 * @returns what was removed and killed.
 */
export async function sweepWorkFolders(root: string, options: { soleOwner: boolean }): Promise<WorkSweep> {
  const me = currentProcessIdentity();
  const sweep: WorkSweep = { removedFolders: [], killedPids: [] };
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const folder = path.join(root, entry.name);
    const owner = await readWorkFolderOwner(folder);
    const mine = owner !== null && owner.pid === me.pid && owner.startTicks === me.startTicks && owner.host === me.host;
    const stale = owner === null ? options.soleOwner : !mine && !(await isProcessAlive(owner));
    if (!stale) continue;
    sweep.killedPids.push(...(await killRecordedChildren(folder)));
    await rm(folder, { recursive: true, force: true });
    sweep.removedFolders.push(folder);
  }
  return sweep;
}

/** Kills the children recorded under `<folder>/.children/` that still run the recorded program; returns their pids. */
async function killRecordedChildren(folder: string): Promise<number[]> {
  const dir = path.join(folder, CHILDREN_FOLDER);
  const names = await readdir(dir).catch(() => [] as string[]);
  const killed: number[] = [];
  for (const name of names) {
    const record = await readFile(path.join(dir, name), 'utf8').then(
      (text) => JSON.parse(text) as ChildRecord,
      () => null,
    );
    if (!record || typeof record.pid !== 'number' || record.pid <= 1) continue;
    const now = await readProcess(record.pid);
    if (!now) continue;
    const sameStart = record.startTicks === '' || now.startTicks === record.startTicks;
    const sameProgram = now.commandLine.some((arg) => path.basename(arg) === record.program);
    if (!sameStart || !sameProgram) continue;
    for (const target of [-record.pid, record.pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // the group or the process is already gone
      }
    }
    killed.push(record.pid);
  }
  return killed;
}
