import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { OWNER_FILE } from './claim-work-folder.ts';
import { readProcess, readStartTicksSync, type ProcessIdentity } from './process-identity.ts';
import { sweepWorkFolders } from './sweep-work-folders.ts';
import { CHILDREN_FOLDER, type ChildRecord } from './track-child-process.ts';

const started: ChildProcess[] = [];
const roots: string[] = [];
let root: string;

/** A `sleep` process in its own group, standing for a decoder or a service. */
function sleeper(): ChildProcess {
  const child = spawn('sleep', ['300'], { stdio: 'ignore', detached: true });
  started.push(child);
  return child;
}

function identityOf(child: ChildProcess): ProcessIdentity {
  return { pid: child.pid!, startTicks: readStartTicksSync(child.pid!), host: hostname() };
}

async function deadIdentity(): Promise<ProcessIdentity> {
  const child = sleeper();
  const identity = identityOf(child);
  await new Promise((done) => {
    child.once('exit', done);
    child.kill('SIGKILL');
  });
  return identity;
}

async function folder(name: string, owner: ProcessIdentity | null, children: ChildRecord[] = []): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(path.join(dir, CHILDREN_FOLDER), { recursive: true });
  await writeFile(path.join(dir, 'audio.wav'), 'partial');
  if (owner) await writeFile(path.join(dir, OWNER_FILE), JSON.stringify(owner));
  for (const child of children) await writeFile(path.join(dir, CHILDREN_FOLDER, `${child.pid}.json`), JSON.stringify(child));
  return dir;
}

const running = async (child: ChildProcess) => (await readProcess(child.pid!)) !== null;
const record = (child: ChildProcess, program = 'sleep'): ChildRecord => ({
  pid: child.pid!,
  startTicks: readStartTicksSync(child.pid!),
  program,
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'sweep-work-'));
  roots.push(root);
});

afterAll(async () => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of roots) await rm(dir, { recursive: true, force: true });
});

describe('sweepWorkFolders', () => {
  it('should kill the recorded children of a dead owner with their group and remove its folder', async () => {
    const orphan = sleeper();
    const exited = new Promise((done) => orphan.once('exit', (_code, signal) => done(signal)));
    const dir = await folder('dead-owner', await deadIdentity(), [record(orphan)]);
    const sweep = await sweepWorkFolders(root, { soleOwner: false });
    expect(sweep).toEqual({ removedFolders: [dir], killedPids: [orphan.pid] });
    expect(await exited).toBe('SIGKILL');
    expect(await readdir(root)).toEqual([]);
  });

  it('should keep the folder and children of a live owner sharing DATA_DIR', async () => {
    const owner = sleeper();
    const child = sleeper();
    await folder('live-owner', identityOf(owner), [record(child)]);
    expect(await sweepWorkFolders(root, { soleOwner: false })).toEqual({ removedFolders: [], killedPids: [] });
    expect(await running(child)).toBe(true);
    expect(await readdir(root)).toEqual(['live-owner']);
  });

  it('should not kill a process whose pid was reused: another program or another start time', async () => {
    const other = sleeper();
    const stale = sleeper();
    await folder('reused', await deadIdentity(), [record(other, 'pocketsphinx_batch'), { ...record(stale), startTicks: '1' }]);
    const sweep = await sweepWorkFolders(root, { soleOwner: false });
    expect(sweep.killedPids).toEqual([]);
    expect(sweep.removedFolders).toHaveLength(1);
    expect(await running(other)).toBe(true);
    expect(await running(stale)).toBe(true);
  });

  it('should remove folders without an owner only when the service is the sole owner of DATA_DIR', async () => {
    await folder('unclaimed', null);
    expect((await sweepWorkFolders(root, { soleOwner: false })).removedFolders).toEqual([]);
    expect((await sweepWorkFolders(root, { soleOwner: true })).removedFolders).toEqual([path.join(root, 'unclaimed')]);
  });
});
