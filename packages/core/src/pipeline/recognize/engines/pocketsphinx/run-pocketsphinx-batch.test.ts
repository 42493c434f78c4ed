import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_FILE } from '../../../../platform/work/claim-work-folder.ts';
import { readProcess } from '../../../../platform/work/process-identity.ts';
import { CHILDREN_FOLDER, type ChildRecord } from '../../../../platform/work/track-child-process.ts';
import { setWorkRoot } from '../../../../platform/work/work-root.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { runPocketsphinxBatch, type PocketsphinxBatchRun } from './run-pocketsphinx-batch.ts';
import { audioPath } from '../../shared-audio.test-helper.ts';

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'work-root-'));
  setWorkRoot(root);
});

afterAll(async () => {
  setWorkRoot(null);
  await rm(root, { recursive: true, force: true });
});

async function batchOf(file: string, signal?: AbortSignal): Promise<PocketsphinxBatchRun> {
  const wavPath = audioPath(file);
  const layout = await readWavLayout(wavPath);
  return {
    binaryPath: '/usr/bin/pocketsphinx_batch',
    modelDir: MODEL_DIR,
    wavPath,
    dataOffset: layout.dataOffset,
    durationSeconds: layout.durationSeconds,
    utterances: [{ start: 0, end: layout.durationSeconds }],
    firstId: 0,
    timeoutMs: 600_000,
    ...(signal ? { signal } : {}),
  };
}

/** The scratch folder of the running batch and the child recorded in it, once both are there. */
async function runningScratch(): Promise<{ folder: string; child: ChildRecord }> {
  for (;;) {
    const [name] = (await readdir(root)).filter((entry) => entry.startsWith('pocketsphinx-'));
    if (name) {
      const folder = path.join(root, name);
      const [record] = await readdir(path.join(folder, CHILDREN_FOLDER)).catch(() => [] as string[]);
      if (record) return { folder, child: JSON.parse(await readFile(path.join(folder, CHILDREN_FOLDER, record), 'utf8')) as ChildRecord };
    }
    await sleep(20);
  }
}

describe('runPocketsphinxBatch', () => {
  it('should work in a claimed folder under the work root, record its child there, and leave nothing behind', async () => {
    const run = runPocketsphinxBatch(await batchOf('jfk.wav'));
    const { folder, child } = await runningScratch();
    const owner = JSON.parse(await readFile(path.join(folder, OWNER_FILE), 'utf8')) as { pid: number };
    expect(owner.pid).toBe(process.pid);
    expect(child.program).toBe('pocketsphinx_batch');
    const output = await run;
    expect(output.hypseg).toMatch(/^0 /);
    expect(output.ctm).toMatch(/^0 1 [\d.]+ [\d.]+ \S+ [01]\.\d{3}$/m); // word posteriors
    expect(await readdir(root)).toEqual([]);
  });

  it('should kill the decoder and remove its folder when aborted', async () => {
    const controller = new AbortController();
    const run = runPocketsphinxBatch(await batchOf('long_hifitts6097_concat_16k.wav', controller.signal));
    const { child } = await runningScratch();
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(run).rejects.toBe(reason);
    for (let i = 0; i < 100 && (await readProcess(child.pid)) !== null; i++) await sleep(50);
    expect(await readProcess(child.pid)).toBeNull();
    expect(await readdir(root)).toEqual([]);
  });
});
