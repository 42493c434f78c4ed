import { chmod, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureFolderBytes, readProcess } from '@transcribe/core';
import { makeFlacBomb, recordFfmpegOutputs } from '@transcribe/core/testing';
import {
  createKeyWithCli,
  fakeEngineEnv,
  getPrediction,
  isSettled,
  waitForPrediction,
  MULTI_PROCESS_TEST_TIMEOUT_MS,
  SPAWN_TIMEOUT_MS,
} from '../test-support/fake-engine-service.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { spawnService, type SpawnedService } from '../test-support/spawn-service.ts';

const LONG = join(AUDIO_DIR, 'long_hifitts6097_concat_16k.wav');

/** `POST …/predictions` with the recording as the raw body (`input.audio`); returns the new prediction's id. */
async function upload(url: string, key: string, body: Buffer): Promise<string> {
  const response = await fetch(`${url}/v1/replicate/v1/models/service/transcribe/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream', 'x-service-body-field': 'input.audio' },
    body,
  });
  const created = (await response.json()) as { id?: string };
  if (response.status !== 201 || !created.id) throw new Error(`create answered ${response.status}: ${JSON.stringify(created)}`);
  return created.id;
}

/** Running processes whose program is `program` and whose arguments name a path under `under`. */
async function processesOf(program: string, under: string): Promise<{ pid: number; startTicks: string }[]> {
  const found: { pid: number; startTicks: string }[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = await readProcess(Number(name));
    if (!info || basename(info.commandLine[0] ?? '') !== program) continue;
    if (info.commandLine.some((arg) => arg.includes(under))) found.push({ pid: Number(name), startTicks: info.startTicks });
  }
  return found;
}

/** True while a process with that pid and start time runs (not a zombie). */
async function stillRunning(process: { pid: number; startTicks: string }): Promise<boolean> {
  const now = await readProcess(process.pid);
  return now !== null && now.startTicks === process.startTicks;
}

async function until<T>(what: string, probe: () => Promise<T | null | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('hostile media through the API: a decompression bomb on the stereo path', () => {
  let dataDir: string;
  let toolsDir: string;
  let service: SpawnedService;
  let key: string;
  let recorder: Awaited<ReturnType<typeof recordFfmpegOutputs>>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'hostile-media-'));
    toolsDir = await mkdtemp(join(tmpdir(), 'hostile-media-tools-'));
    recorder = await recordFfmpegOutputs(toolsDir, { virtualMemoryKb: 1_000_000 }); // ffmpeg fails past 1 GB of memory
    const env = fakeEngineEnv(dataDir, null, { FFMPEG_PATH: recorder.script, RATE_LIMIT_PER_MINUTE: '0' });
    service = await spawnService(env, SPAWN_TIMEOUT_MS);
    key = await createKeyWithCli(env);
  }, SPAWN_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    await service?.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    await rm(toolsDir, { recursive: true, force: true });
  });

  it(
    'should fail a 16 kB stereo FLAC stating 10 s but holding 25 h as longer than its header says, writing under 6 MB',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const bomb = join(toolsDir, 'bomb.flac');
      const size = await makeFlacBomb(bomb, { hours: 25, statedSamples: 10 });
      expect(size).toBeLessThan(20_000);
      let peak = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const [work, uploads] = await Promise.all([
            measureFolderBytes(join(dataDir, 'work')),
            measureFolderBytes(join(dataDir, 'uploads')),
          ]);
          peak = Math.max(peak, work + uploads);
          await sleep(20);
        }
      })();
      const started = Date.now();
      const id = await upload(service.url, key, await readFile(bomb));
      const done = await waitForPrediction(service.url, key, id, isSettled, 300_000);
      const elapsed = Date.now() - started;
      sampling = false;
      await sampler;
      const written = await recorder.outputs();
      console.log(
        `FLAC bomb (${size} bytes): ${String(done.status)} in ${elapsed} ms; ffmpeg wrote ${JSON.stringify(written.map((w) => [basename(w.path), w.bytes]))}; work and upload folders peak ${peak} bytes`,
      );
      expect(done.status).toBe('failed');
      expect(String(done.error)).toMatch(/^The recording is longer than its header says: it states 10 s, but its audio runs past 80 s\./);
      // The stereo path was taken (one file per channel) and each stopped at 81 s of 16 kHz audio: 2.6 MB, not 2.88 GB.
      expect(written.map((w) => basename(w.path)).sort()).toEqual(['channel-left.wav', 'channel-right.wav']);
      for (const { bytes } of written) expect(bytes).toBeLessThanOrEqual(81 * 32_000 + 4096);
      expect(peak).toBeLessThan(6 * 2 ** 20);
      expect(await measureFolderBytes(join(dataDir, 'work'))).toBe(0); // nothing left behind
    },
  );

  it(
    'should fail an 8 kB FLAC bomb of 18-hour frames the same way, within 1 GB of memory',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      const bomb = join(toolsDir, 'big-frames.flac');
      await makeFlacBomb(bomb, { hours: 25, statedSamples: 10, frameSamples: 65_535 });
      const before = (await recorder.outputs()).length;
      const id = await upload(service.url, key, await readFile(bomb));
      const done = await waitForPrediction(service.url, key, id, isSettled, 300_000);
      // Resampled in one piece, one such frame is a billion samples: ffmpeg needed 10 GB ("Cannot allocate memory" here).
      expect(done.status).toBe('failed');
      expect(String(done.error)).toMatch(/^The recording is longer than its header says/);
      const written = (await recorder.outputs()).slice(before);
      expect(written).toHaveLength(2);
      for (const { bytes } of written) expect(bytes).toBeLessThanOrEqual(81 * 32_000 + 4096);
    },
  );
});

describe('pocketsphinx children after a SIGKILL of the service', () => {
  let dataDir: string;
  let toolsDir: string;
  let service: SpawnedService | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'orphans-'));
    toolsDir = await mkdtemp(join(tmpdir(), 'orphans-tools-'));
  });

  afterAll(async () => {
    await service?.kill('SIGKILL');
    for (const child of await processesOf('pocketsphinx_batch', dataDir)) process.kill(child.pid, 'SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
    await rm(toolsDir, { recursive: true, force: true });
  });

  it(
    'should kill the orphaned pocketsphinx_batch processes and remove their work folders at the next start',
    { timeout: MULTI_PROCESS_TEST_TIMEOUT_MS },
    async () => {
      // The real decoder, with SIGPIPE ignored: once the service is dead its log pipe is closed, and a plain
      // pocketsphinx_batch dies at its next log line, but not while it decodes a long utterance in silence.
      // Ignoring SIGPIPE keeps it running as that orphan would, so the test sees what the next start does.
      const binary = join(toolsDir, 'pocketsphinx_batch');
      await writeFile(binary, '#!/bin/sh\ntrap \'\' PIPE\nexec /usr/bin/pocketsphinx_batch "$@"\n');
      await chmod(binary, 0o755);
      const env = {
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        RECOGNITION_ENGINE: 'pocketsphinx',
        POCKETSPHINX_BIN: binary,
        RATE_LIMIT_PER_MINUTE: '0',
      };
      service = await spawnService(env, SPAWN_TIMEOUT_MS);
      const key = await createKeyWithCli(env);
      const id = await upload(service.url, key, await readFile(LONG));
      // Both decoder processes run, their scratch folders (control file, partial transcript) under DATA_DIR/work,
      // not /tmp: processesOf finds them by the DATA_DIR/work paths in their command lines.
      const children = await until(
        'two pocketsphinx_batch processes',
        async () => {
          const found = await processesOf('pocketsphinx_batch', join(dataDir, 'work'));
          return found.length >= 2 && found;
        },
        240_000,
      );
      const scratch = (await readdir(join(dataDir, 'work'))).filter((name) => name.startsWith('pocketsphinx-'));
      expect(scratch.length).toBeGreaterThanOrEqual(2);

      await service.kill('SIGKILL');
      service = null;
      // Killing the service does not end them: they are orphans now, decoding for nobody.
      await sleep(1000);
      const orphans = [];
      for (const child of children) if (await stillRunning(child)) orphans.push(child);
      console.log(`after SIGKILL: ${orphans.length} of ${children.length} pocketsphinx_batch processes still running`);
      expect(orphans.length).toBe(children.length);

      service = await spawnService(env, SPAWN_TIMEOUT_MS);
      for (const child of children) expect(await stillRunning(child), `pid ${child.pid}`).toBe(false);
      const left = await readdir(join(dataDir, 'work'));
      for (const name of scratch) expect(left).not.toContain(name);
      // The retry of the interrupted prediction runs alone: at most the engine's two processes, new ones.
      await sleep(1000);
      const now = await processesOf('pocketsphinx_batch', dataDir);
      expect(now.length).toBeLessThanOrEqual(2);
      for (const child of now) expect(children.some((old) => old.pid === child.pid && old.startTicks === child.startTicks)).toBe(false);
      const prediction = await getPrediction(service.url, key, id);
      expect(['starting', 'processing']).toContain(prediction.status);
      await fetch(`${service.url}/v1/replicate/v1/predictions/${id}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}` },
      });
      await waitForPrediction(service.url, key, id, isSettled, 120_000);
      // Canceled: its decoders are killed and its folders removed when the run ends.
      await until(
        'the canceled run to end its decoders',
        async () => (await processesOf('pocketsphinx_batch', dataDir)).length === 0,
        60_000,
      );
      await until('the work folders of the canceled run to go', async () => (await readdir(join(dataDir, 'work'))).length === 0, 60_000);
    },
  );
});
