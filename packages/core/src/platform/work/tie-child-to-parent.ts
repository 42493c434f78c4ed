import { spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Whether children can be tied to this process (see tieChildToParent), and why not when they cannot. */
export type ParentDeathSupport = { available: true; setpriv: string } | { available: false; reason: string };

/** A command line to hand to `spawn` / `execFile` in place of the program's own. */
export interface TiedCommand {
  command: string;
  args: string[];
  /** True when the command goes through `setpriv --pdeathsig`; false when it is the program's own (the fallback). */
  tied: boolean;
}

let support: ParentDeathSupport | undefined;

/**
 * Checks once whether util-linux's `setpriv` (found on PATH) can set a parent-death signal: runs
 * `setpriv --pdeathsig SIGKILL -- true` and expects exit 0. A missing `setpriv` (not Linux, a minimal
 * image without util-linux) or one too old to know `--pdeathsig` answers `available: false` with the
 * reason, in words for the log.
 * @param setpriv the program to try (default `setpriv`, looked up on PATH); tests name a missing or broken one.
 * @returns the support, never throws.
 */
export function probeParentDeathSignal(setpriv = 'setpriv'): ParentDeathSupport {
  const found = findProgram(setpriv);
  if (found === null) return { available: false, reason: `${setpriv} (util-linux) is not installed` };
  const tried = spawnSync(found, ['--pdeathsig', 'SIGKILL', '--', 'true'], { stdio: 'ignore', timeout: 10_000 });
  if (tried.status === 0) return { available: true, setpriv: found };
  const how = tried.error ? tried.error.message : `exit ${tried.status ?? tried.signal}`;
  return { available: false, reason: `${found} --pdeathsig does not work here (${how}); util-linux may be too old` };
}

/**
 * probeParentDeathSignal of the default `setpriv`, run at the first call of this process and
 * remembered (the programs installed do not change while it runs). The service calls it at start-up
 * to log the fallback once (apps/api/src/start-service.ts).
 */
export function parentDeathSupport(): ParentDeathSupport {
  support ??= probeParentDeathSignal();
  return support;
}

/**
 * The command line that starts `command` so that the kernel sends it `signal` when this process dies,
 * however it dies (SIGKILL, an out-of-memory kill, a crash that runs no `exit` hook): util-linux's
 * `setpriv --pdeathsig <signal> -- <program> <args>`, which sets PR_SET_PDEATHSIG (prctl(2)) on
 * itself and then execs the program, which keeps it (the same pid; only a set-user-ID program
 * drops it). Without it such a child runs on as an orphan until it finishes, or until the next start
 * of the service kills it (sweep-work-folders.ts).
 *
 * Rules of the mechanism (prctl(2)): the signal fires when the *thread* that started the child ends,
 * not only the process. Node's `child_process` starts children from the JavaScript thread that calls
 * it: the main thread, which lives as long as the process. Do not start tied children from a
 * worker thread (worker_threads), or they die with it. The signal is not inherited by the child's own
 * children: a program that forks (a shell script that does not `exec`) ties only its first process.
 *
 * Falls back to the program's own command line (`tied: false`) when `setpriv` is not usable
 * (parentDeathSupport) or when `command` is not found (so that `spawn` reports the missing program
 * itself, with its `ENOENT` error, as before).
 * @param command a program name looked up on PATH, or a path to it.
 * @param signal the signal the child gets when this process dies (default SIGKILL).
 */
export function tieChildToParent(command: string, args: readonly string[], signal: NodeJS.Signals = 'SIGKILL'): TiedCommand {
  const setpriv = parentDeathSupport();
  const program = setpriv.available ? findProgram(command) : null;
  if (!setpriv.available || program === null) return { command, args: [...args], tied: false };
  return { command: setpriv.setpriv, args: ['--pdeathsig', signal, '--', program, ...args], tied: true };
}

/**
 * Where `command` is, as execvp(3) would find it: a name with a `/` as given, other names on each
 * directory of this process's PATH in turn (the PATH `spawn` itself searches).
 * @returns the path of an executable regular file, or null.
 */
function findProgram(command: string): string | null {
  if (command.includes('/')) return isExecutableFile(command) ? command : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir === '' ? '.' : dir, command);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}
