import { randomUUID } from 'node:crypto';
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { currentProcessIdentity, isProcessAlive, readProcess, type ProcessIdentity } from '../../../../platform/work/process-identity.ts';

/** The claim file of model `name`: `MODELS_DIR/.downloads/<name>.pid`. */
export function installClaimPath(modelsDir: string, name: string): string {
  return path.join(path.resolve(modelsDir), '.downloads', `${name}.pid`);
}

/** What a claim file holds: the identity of the installing process and the program it runs. */
export interface InstallClaim extends ProcessIdentity {
  /**
   * Base name of the program the holder was started as (`process.argv0`: `node`, `nodejs`), which
   * the command line of a live process with that pid must name; '' for a claim of the older
   * format (a bare pid), which any `node…` program matches.
   */
  program: string;
}

/** What claimInstallSlot found when it could not claim: the holder, as its claim file names it. */
export interface InstallSlotBusy {
  /** The claim file, to delete by hand when no install runs (e.g. its holder ran on another host). */
  file: string;
  holder: InstallClaim;
}

/**
 * Reads a claim file: the JSON identity written since claims name the start time, or the bare
 * process id of older claims (its start time and host then unknown: ''/this host).
 * @returns null when the file is gone or holds neither.
 */
async function readClaim(file: string): Promise<InstallClaim | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  if (/^\s*\d+\s*$/.test(text)) return { pid: Number(text), startTicks: '', host: hostname(), program: '' };
  try {
    const claim = JSON.parse(text) as Partial<InstallClaim>;
    if (!Number.isInteger(claim.pid) || typeof claim.startTicks !== 'string' || typeof claim.host !== 'string') return null;
    return { pid: claim.pid!, startTicks: claim.startTicks, host: claim.host, program: typeof claim.program === 'string' ? claim.program : '' };
  } catch {
    return null;
  }
}

/**
 * Whether the claim's holder still runs: never this process itself (a claim naming this process's
 * pid was left by an earlier process that had the same pid, e.g. before a container restart gave a
 * fresh PID namespace); on this host, a process with that pid, the same start time
 * (isProcessAlive; a pid reused by another process has another one) and the same program; a claim
 * of another host counts as running, since it cannot be checked from here.
 */
async function holderRuns(claim: InstallClaim): Promise<boolean> {
  if (claim.pid <= 0) return false;
  if (claim.host !== hostname()) return true;
  if (claim.pid === process.pid) return false;
  if (!(await isProcessAlive(claim))) return false;
  const now = await readProcess(claim.pid);
  const names = (now?.commandLine ?? []).map((arg) => path.basename(arg));
  return claim.program === '' ? names.some((name) => name.startsWith('node')) : names.includes(claim.program);
}

/**
 * Claims `MODELS_DIR/.downloads/<name>.pid` (created atomically with its content: written aside,
 * then hard-linked into place, which fails when the name exists; holding this process's identity:
 * pid, start time, host, program) so that two processes started together (`npm start` and
 * `npm run worker`) never download the same archive into the same file. A claim whose holder no
 * longer runs (holderRuns: gone, its pid reused, or this very process's pid) is taken over: moved
 * aside and deleted only when it is still the file judged stale (same inode), so two processes
 * taking over one stale claim at once never both win. The claim guards processes from one another:
 * within one process the caller must not run two installs of one name at once (this process's own
 * pid never counts as a holder).
 * @returns a release function, or InstallSlotBusy naming the claim file and its holder when
 *   another running process holds it.
 * @throws the file system's errors other than "exists".
 */
export async function claimInstallSlot(modelsDir: string, name: string): Promise<(() => Promise<void>) | InstallSlotBusy> {
  const file = installClaimPath(modelsDir, name);
  await mkdir(path.dirname(file), { recursive: true });
  const me: InstallClaim = { ...currentProcessIdentity(), program: path.basename(process.argv0) };
  const aside = `${file}.${randomUUID()}`;
  await writeFile(aside, `${JSON.stringify(me)}\n`);
  try {
    let holder: InstallClaim | null = null;
    for (let tries = 0; tries < 5; tries++) {
      try {
        await link(aside, file);
        return () => rm(file, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const inode = await stat(file).then((info) => info.ino, () => null);
      holder = await readClaim(file);
      if (holder && (await holderRuns(holder))) return { file, holder };
      if (inode !== null) await takeOver(file, inode);
    }
    return { file, holder: holder ?? { pid: 0, startTicks: '', host: '?', program: '?' } };
  } finally {
    await rm(aside, { force: true });
  }
}

/** Removes the stale claim `file` if it still is inode `inode`; a newer claim moved aside by mistake is put back. */
async function takeOver(file: string, inode: number): Promise<void> {
  const moved = `${file}.stale-${randomUUID()}`;
  try {
    await rename(file, moved);
  } catch {
    return; // already gone: someone else took it over
  }
  const movedInode = await stat(moved).then((info) => info.ino, () => null);
  if (movedInode !== inode) await link(moved, file).catch(() => {});
  await rm(moved, { force: true });
}
