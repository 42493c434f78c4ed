import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readStartTicksSync } from './process-identity.ts';
import { tieChildToParent } from './tie-child-to-parent.ts';

/** Folder (inside a work folder) where the children started for it are recorded, one `<pid>.json` each. */
export const CHILDREN_FOLDER = '.children';

/** What is recorded of a running child, so that a later start of the service can kill it. */
export interface ChildRecord {
  pid: number;
  /** Start time in clock ticks since boot (process-identity.ts); '' when unknown. */
  startTicks: string;
  /** File name of the program, e.g. `pocketsphinx_batch`: a leftover is killed only when its command line still names it. */
  program: string;
}

/** Children of this process still running; killed when the process exits. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

/**
 * Starts `command` without a shell in its own process group (`detached: true`), so that it and anything
 * it starts can be killed together (killChildGroup), and records it in `<recordIn>/.children/<pid>.json`
 * when `recordIn` is given. The record (and the `.children` folder once empty) is removed when the child exits; one left by a killed service
 * lets the next start kill the orphan (sweep-work-folders.ts). Children still running when this
 * process exits normally are killed (a `process.on('exit')` hook): being in their own group, they
 * would no longer get the terminal's Ctrl-C. When this process dies without running that hook
 * (SIGKILL, an out-of-memory kill, a native crash), the kernel kills the child itself: it is started
 * through `setpriv --pdeathsig SIGKILL` (tie-child-to-parent.ts; without `setpriv` only the next
 * start's sweep ends it). Call it from the main thread only (a child is tied to the thread that started it).
 * @param options.recordIn a work folder (it must exist), or undefined to keep no record.
 * @returns the child, as from `spawn` (listen for `error` when the program may be missing).
 */
export function spawnTrackedChild(
  command: string,
  args: readonly string[],
  options: { stdio: StdioOptions; recordIn?: string },
): ChildProcess {
  installExitHook();
  const launch = tieChildToParent(command, args);
  const child = spawn(launch.command, launch.args, { stdio: options.stdio, detached: true });
  const pid = child.pid;
  if (pid === undefined) return child; // not started: spawn emits `error`
  running.add(child);
  const recordPath = options.recordIn
    ? recordChild(options.recordIn, { pid, startTicks: readStartTicksSync(pid), program: path.basename(command) })
    : null;
  child.once('exit', () => {
    running.delete(child);
    if (recordPath) forgetChild(recordPath);
  });
  return child;
}

/**
 * Sends `signal` (default SIGKILL) to the whole process group of a child started by spawnTrackedChild.
 * A child that already ended is left alone (its pid may belong to another process by now).
 */
export function killChildGroup(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    child.kill(signal); // no group (e.g. it has not set one up yet): the child alone
  }
}

function recordChild(folder: string, record: ChildRecord): string | null {
  try {
    const dir = path.join(folder, CHILDREN_FOLDER);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${record.pid}.json`);
    writeFileSync(file, JSON.stringify(record));
    return file;
  } catch {
    return null; // a record is a clean-up aid: a full disk must not stop the work
  }
}

/** Removes a child's record, and its `.children` folder once empty (no trace left in the caller's folder). */
function forgetChild(recordPath: string): void {
  try {
    rmSync(recordPath, { force: true });
    rmdirSync(path.dirname(recordPath));
  } catch {
    // another child's record is still there
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) killChildGroup(child);
  });
}
