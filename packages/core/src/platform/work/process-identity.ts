import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/**
 * Names one process for its whole life: a pid alone is reused by the kernel, so its start time
 * (field 22 of /proc/<pid>/stat, clock ticks since boot) and the host are kept with it.
 */
export interface ProcessIdentity {
  pid: number;
  /** Start time in clock ticks since boot, as text (it can pass 2^53 on long uptimes); '' when unknown. */
  startTicks: string;
  /** `os.hostname()` of the machine it runs on (a DATA_DIR may be shared by several machines). */
  host: string;
}

/**
 * The start time of process `pid` in clock ticks since boot, read synchronously from /proc/<pid>/stat.
 * @returns '' when the process is gone or /proc is not there (not Linux).
 */
export function readStartTicksSync(pid: number): string {
  try {
    return startTicksOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return '';
  }
}

/** The identity of this process. */
export function currentProcessIdentity(): ProcessIdentity {
  return { pid: process.pid, startTicks: readStartTicksSync(process.pid), host: hostname() };
}

/**
 * Whether `identity` is still running: same host, a process with that pid, and the same start time.
 * A process on another host is reported alive (it cannot be checked from here).
 */
export async function isProcessAlive(identity: ProcessIdentity): Promise<boolean> {
  if (identity.host !== hostname()) return true;
  const now = await readProcess(identity.pid);
  return now !== null && (identity.startTicks === '' || now.startTicks === identity.startTicks);
}

/**
 * Start time and command line of process `pid` from /proc.
 * @returns null when there is no such process (or it is a zombie: its work is over).
 */
export async function readProcess(pid: number): Promise<{ startTicks: string; commandLine: string[] } | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    if (stateOf(stat) === 'Z') return null;
    const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    return { startTicks: startTicksOf(stat), commandLine };
  } catch {
    return null;
  }
}

/** Fields after the command name (which may hold spaces and parentheses) start after the last ')'. */
function fieldsAfterName(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function stateOf(stat: string): string {
  return fieldsAfterName(stat)[0] ?? '';
}

/** Field 22 (starttime); the fields after the name start at field 3. */
function startTicksOf(stat: string): string {
  return fieldsAfterName(stat)[22 - 3] ?? '';
}

/**
 * Whether a process with this pid exists (signal 0 probes without sending; EPERM means it exists
 * but belongs to another user). A reused pid counts as running: use isProcessAlive where that matters.
 */
export function isPidRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
