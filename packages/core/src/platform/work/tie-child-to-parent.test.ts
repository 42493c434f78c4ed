import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readProcess } from './process-identity.ts';
import { probeParentDeathSignal, tieChildToParent } from './tie-child-to-parent.ts';

const REPO_ROOT = path.join(import.meta.dirname, '../../../../..');
const HELPER = path.join(import.meta.dirname, 'test-support/start-tied-children.ts');

interface Started {
  sleeper: number;
  blocked: number;
  tied: boolean;
}

const dirs: string[] = [];
/** Children the test saw (pid and start time), killed after each test if they still run. */
let leftovers: { pid: number; startTicks: string }[] = [];

afterEach(async () => {
  for (const child of leftovers) {
    const now = await readProcess(child.pid);
    if (now?.startTicks === child.startTicks) process.kill(child.pid, 'SIGKILL');
  }
  leftovers = [];
});

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Runs start-tied-children.ts and waits for its line naming the children (both running by then). */
async function startParent(env: NodeJS.ProcessEnv = process.env): Promise<{ parent: ChildProcess; started: Started }> {
  const parent = spawn(process.execPath, ['--import', 'tsx', HELPER], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: parent.stdout! }).once('line', resolve);
    parent.once('exit', (code) => reject(new Error(`the helper exited with ${code} before starting its children`)));
  });
  const started = JSON.parse(line) as Started;
  for (const pid of [started.sleeper, started.blocked]) {
    const info = await readProcess(pid);
    expect(info, `child ${pid} runs`).not.toBeNull();
    leftovers.push({ pid, startTicks: info!.startTicks });
  }
  return { parent, started };
}

async function killAndWait(child: ChildProcess): Promise<void> {
  await new Promise((done) => {
    child.once('exit', done);
    child.kill('SIGKILL');
  });
}

/** Whether the process seen at the start still runs (same pid and start time, not a zombie). */
async function running(pid: number): Promise<boolean> {
  const seen = leftovers.find((child) => child.pid === pid);
  const now = await readProcess(pid);
  return now !== null && now.startTicks === seen?.startTicks;
}

/** Polls until neither child runs; returns those still running when `timeoutMs` passed (empty when both went). */
async function waitUntilGone(pids: number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const alive: number[] = [];
    for (const pid of pids) if (await running(pid)) alive.push(pid);
    if (alive.length === 0 || Date.now() > deadline) return alive;
    await sleep(100);
  }
}

describe('probeParentDeathSignal', () => {
  it('should find a working setpriv --pdeathsig on this machine (util-linux, installed by scripts/test.sh)', () => {
    const support = probeParentDeathSignal();
    expect(support).toMatchObject({ available: true });
  });

  it('should report a setpriv that is not installed, in words', () => {
    expect(probeParentDeathSignal('/nonexistent/setpriv')).toEqual({
      available: false,
      reason: '/nonexistent/setpriv (util-linux) is not installed',
    });
  });

  it('should report a setpriv that does not know --pdeathsig', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'old-setpriv-'));
    dirs.push(dir);
    const old = path.join(dir, 'setpriv');
    await writeFile(old, '#!/bin/sh\necho "setpriv: unrecognized option \'--pdeathsig\'" >&2\nexit 1\n');
    await chmod(old, 0o755);
    const support = probeParentDeathSignal(old);
    expect(support).toEqual({ available: false, reason: `${old} --pdeathsig does not work here (exit 1); util-linux may be too old` });
  });
});

describe('tieChildToParent', () => {
  it('should start a program found on PATH through setpriv, by its full path', () => {
    const tied = tieChildToParent('sleep', ['1'], 'SIGTERM');
    expect(tied.tied).toBe(true);
    expect(path.basename(tied.command)).toBe('setpriv');
    expect(tied.args.slice(0, 3)).toEqual(['--pdeathsig', 'SIGTERM', '--']);
    expect(path.isAbsolute(tied.args[3]!) && path.basename(tied.args[3]!) === 'sleep').toBe(true);
    expect(tied.args.slice(4)).toEqual(['1']);
  });

  it('should leave a program it cannot find alone, so that spawn reports it missing as before', () => {
    expect(tieChildToParent('no-such-program-here', ['-x'])).toEqual({ command: 'no-such-program-here', args: ['-x'], tied: false });
    expect(tieChildToParent('/nonexistent/ffmpeg', [])).toEqual({ command: '/nonexistent/ffmpeg', args: [], tied: false });
  });
});

describe('children of a process killed with SIGKILL', () => {
  it('should end with it: a spawned program and a node child blocked in one synchronous call', { timeout: 60_000 }, async () => {
    const { parent, started } = await startParent();
    expect(started.tied).toBe(true);
    await killAndWait(parent); // no exit hook runs
    const alive = await waitUntilGone([started.sleeper, started.blocked], 10_000);
    expect(alive, 'children still running 10 s after their parent was killed').toEqual([]);
  });

  it(
    'should run on without setpriv (the fallback: children start and work, only the next start of the service ends them)',
    { timeout: 60_000 },
    async () => {
      // PATH holds `sleep` but no setpriv.
      const bin = await mkdtemp(path.join(tmpdir(), 'no-setpriv-'));
      dirs.push(bin);
      const sleepPath = tieChildToParent('sleep', []).args[3]!;
      await symlink(sleepPath, path.join(bin, 'sleep'));
      const { parent, started } = await startParent({ ...process.env, PATH: bin });
      expect(started.tied).toBe(false);
      await killAndWait(parent);
      await sleep(1000);
      expect(await running(started.sleeper)).toBe(true);
      expect(await running(started.blocked)).toBe(true);
    },
  );
});
