import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProcess } from '../../../../platform/work/process-identity.ts';
import { CHILDREN_FOLDER, type ChildRecord } from '../../../../platform/work/track-child-process.ts';
import { setWorkRoot } from '../../../../platform/work/work-root.ts';
import { encodeWavHeader, WAV_HEADER_BYTES } from '../../../decode/encode-wav-header.ts';
import { readWavLayout } from '../../../decode/read-wav-layout.ts';
import { audioPath, readReference } from '../../shared-audio.test-helper.ts';
import { wordErrorRate } from '../../word-error-rate.ts';
import { openWarmPocketsphinx } from './open-warm-pocketsphinx.ts';
import { parsePocketsphinxHypseg } from './parse-pocketsphinx-hypseg.ts';
import { createPocketsphinxEngine } from './pocketsphinx-engine.ts';
import { runPocketsphinxBatch } from './run-pocketsphinx-batch.ts';

const MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const BINARY = '/usr/bin/pocketsphinx_batch';
const SEARCH_ARGS = ['-remove_noise', 'no'];
let root: string;
let audioDir: string;
let pieces: { path: string; seconds: number }[];

/** Writes samples [from, to) seconds of a 16 kHz WAV as a WAV with the canonical 44-byte header. */
async function cut(file: string, from: number, to: number, name: string): Promise<{ path: string; seconds: number }> {
  const layout = await readWavLayout(audioPath(file));
  const bytes = await readFile(audioPath(file));
  const pcm = bytes.subarray(layout.dataOffset + Math.round(from * 16_000) * 2, layout.dataOffset + Math.round(to * 16_000) * 2);
  const out = path.join(audioDir, name);
  await writeFile(out, Buffer.concat([encodeWavHeader(pcm.length, 16_000), pcm]));
  return { path: out, seconds: pcm.length / 32_000 };
}

const words = (line: string) =>
  parsePocketsphinxHypseg(line.replace(/^\d+ /, '0 '), [0])
    .map((segment) => segment.text)
    .join(' ');

/** The folder of the warm process (under the work root) and the child recorded in it, once both are there. */
async function warmFolder(): Promise<{ folder: string; child: ChildRecord }> {
  for (;;) {
    const [name] = (await readdir(root)).filter((entry) => entry.startsWith('pocketsphinx-live-'));
    if (name) {
      const folder = path.join(root, name);
      const [record] = await readdir(path.join(folder, CHILDREN_FOLDER)).catch(() => [] as string[]);
      if (record) return { folder, child: JSON.parse(await readFile(path.join(folder, CHILDREN_FOLDER, record), 'utf8')) as ChildRecord };
    }
    await sleep(20);
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100 && (await readProcess(pid)) !== null; i++) await sleep(50);
  return (await readProcess(pid)) === null;
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'warm-ps-'));
  setWorkRoot(root);
  // jfk.wav cut at its pause after "americans" (2.3 s) into two pieces, written outside the work root
  audioDir = await mkdtemp(path.join(tmpdir(), 'warm-ps-audio-'));
  pieces = [await cut('jfk.wav', 0, 2.3, 'a.wav'), await cut('jfk.wav', 2.3, 11, 'b.wav')];
});

afterAll(async () => {
  setWorkRoot(null);
  await rm(root, { recursive: true, force: true });
  await rm(audioDir, { recursive: true, force: true });
});

describe('openWarmPocketsphinx', () => {
  it('should decode pieces one after another in one process, as a fresh process would, and end it at close', async () => {
    const warm = await openWarmPocketsphinx({
      binaryPath: BINARY,
      modelDir: MODEL_DIR,
      dataOffset: WAV_HEADER_BYTES,
      searchArgs: SEARCH_ARGS,
    });
    const { folder, child } = await warmFolder();
    expect(child.program).toBe('pocketsphinx_batch');
    const lines: string[] = [];
    for (const piece of pieces) lines.push(await warm.decode(piece.path, piece.seconds));
    expect(lines[0]).toMatch(/^1 S /);
    expect(lines[1]).toMatch(/^2 S /);
    expect(await readProcess(child.pid)).not.toBeNull(); // the same process decoded both
    // each piece as its own fresh pocketsphinx_batch run, as before the warm process
    const fresh: string[] = [];
    for (const piece of pieces) {
      const output = await runPocketsphinxBatch({
        binaryPath: BINARY,
        modelDir: MODEL_DIR,
        wavPath: piece.path,
        dataOffset: WAV_HEADER_BYTES,
        durationSeconds: piece.seconds,
        utterances: [{ start: 0, end: piece.seconds }],
        firstId: 0,
        timeoutMs: 600_000,
        searchArgs: SEARCH_ARGS,
      });
      fresh.push(words(output.hypseg));
    }
    // the same words as fresh processes (the model state is not carried from one utterance to the next; CMN is per utterance)
    expect(lines.map(words)).toEqual(fresh);
    expect(wordErrorRate(await readReference('jfk.wav'), fresh.join(' ')).wer).toBeLessThan(0.6); // words were recognised
    await warm.close();
    expect(warm.ended).toBe(true);
    expect(await gone(child.pid)).toBe(true);
    await expect(readdir(folder)).rejects.toThrow(/ENOENT/);
    await expect(warm.decode(pieces[0]!.path, pieces[0]!.seconds)).rejects.toThrow(/closed/);
  });

  it('should end the process when a decode is aborted, and leave nothing after close', async () => {
    const warm = await openWarmPocketsphinx({
      binaryPath: BINARY,
      modelDir: MODEL_DIR,
      dataOffset: WAV_HEADER_BYTES,
      searchArgs: SEARCH_ARGS,
    });
    const { child } = await warmFolder();
    const controller = new AbortController();
    const decoding = warm.decode(pieces[1]!.path, pieces[1]!.seconds, controller.signal);
    const reason = new Error('the session ended');
    controller.abort(reason);
    await expect(decoding).rejects.toBe(reason);
    expect(await gone(child.pid)).toBe(true);
    expect(warm.ended).toBe(true);
    await warm.close();
    expect(await readdir(root)).toEqual([]);
  });

  it('should fail the decode with a clear error when the program cannot run, and leave nothing after close', async () => {
    const warm = await openWarmPocketsphinx({
      binaryPath: path.join(root, 'no-such-pocketsphinx'),
      modelDir: MODEL_DIR,
      dataOffset: WAV_HEADER_BYTES,
      searchArgs: [],
    });
    // spawn fails (engine_unavailable), or setpriv starts and cannot exec it (the process ends: recognition_failed)
    await expect(warm.decode(pieces[0]!.path, pieces[0]!.seconds)).rejects.toMatchObject({
      code: expect.stringMatching(/^(engine_unavailable|recognition_failed)$/),
      message: expect.stringMatching(/pocketsphinx/),
    });
    await warm.close();
    expect(await readdir(root)).toEqual([]);
  });
});

describe('the pocketsphinx engine session (openSession)', () => {
  it('should recognise VAD-cut pieces through one warm process and end it at close', async () => {
    const session = createPocketsphinxEngine().openSession!();
    const texts: string[] = [];
    for (const piece of pieces) {
      const segments = await session.recognize({
        wavPath: piece.path,
        durationSeconds: piece.seconds,
        speech: [{ start: 0, end: piece.seconds }],
        language: null,
        prompt: null,
        hotwords: [],
        tightCut: true,
      });
      texts.push(segments.map((segment) => segment.text).join(' '));
      expect(segments.every((segment) => segment.language === 'en')).toBe(true);
    }
    const { child } = await warmFolder();
    expect(wordErrorRate(await readReference('jfk.wav'), texts.join(' ')).wer).toBeLessThan(0.6);
    await session.close();
    expect(await gone(child.pid)).toBe(true);
    expect(await readdir(root)).toEqual([]);
  });
});
