import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findCatalogModel, RECOMMENDED_CPU_MODEL } from '@transcribe/core';
import {
  DIARIZATION_FIXTURE_MODELS_DIR,
  makeDiarizationReleaseFiles,
  packTarBz2,
  type ReleaseHost,
  serveReleaseFiles,
  startBlackHole,
  writeFixtureModel,
} from '@transcribe/core/testing';
import { autoInstallMirror } from './select-engine.ts';
import { findLogLines } from './test-support/read-log-lines.ts';
import { SPAWN_TIMEOUT_MS } from './test-support/fake-engine-service.ts';
import { freePort, runScriptToEnd, spawnService } from './test-support/spawn-service.ts';

/**
 * Longest wait for a log line or a dropped connection, ms: a bound for a failing run only (they come
 * within seconds on a quiet machine), generous because a loaded 2-core machine starts a service
 * several times slower.
 */
const LOG_WAIT_MS = 120_000;

const CLI = 'apps/api/src/cli/models.ts';
const BASE = findCatalogModel(RECOMMENDED_CPU_MODEL)!;

/** Waits until the service's structured log has a line of `component` whose message contains `text`. */
async function waitForLog(read: () => string, component: string, text: string, timeoutMs: number): Promise<void> {
  const started = performance.now();
  while (findLogLines(read(), component, text).length === 0) {
    if (performance.now() - started > timeoutMs)
      throw new Error(`no ${component} line with "${text}" within ${timeoutMs} ms in:\n${read()}`);
    await sleep(100);
  }
}

/** The service's lines of `component` (its structured log) whose message contains `text`. */
const logged = (output: string, component: string, text = '') => findLogLines(output, component, text);

describe('first start without a model', () => {
  let work: string;
  let modelsDir: string;
  let host: ReleaseHost;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'first-start-work-'));
    // The recommended model's name with the random-weight fixture's files: real format, wrong words.
    await writeFixtureModel(join(work, 'src'), BASE);
    await packTarBz2(join(work, 'src'), BASE.name, join(work, `${BASE.name}.tar.bz2`));
    // And the recommended diarization pair, made of the fixture graphs: its self-test refuses it too.
    const diarization = await makeDiarizationReleaseFiles(work);
    host = await serveReleaseFiles(
      new Map([[`/asr-models/${BASE.name}.tar.bz2`, await readFile(join(work, `${BASE.name}.tar.bz2`))], ...diarization.files]),
    );
  });
  afterAll(async () => {
    await host.close();
    await rm(work, { recursive: true, force: true });
  });
  beforeEach(async () => {
    modelsDir = await mkdtemp(join(work, 'models-'));
  });

  it('should read MODELS_AUTO_INSTALL: off with 0, on by default, a URL as mirror, off by default under NODE_ENV=test', () => {
    expect(autoInstallMirror({ MODELS_AUTO_INSTALL: '0', NODE_ENV: undefined })).toBe(false);
    expect(autoInstallMirror({ MODELS_AUTO_INSTALL: 'false', NODE_ENV: undefined })).toBe(false);
    expect(autoInstallMirror({ MODELS_AUTO_INSTALL: undefined, NODE_ENV: 'production' })).toBeNull();
    // An env object without NODE_ENV, built inside a test process (NODE_ENV=test): still off.
    expect(process.env.NODE_ENV).toBe('test');
    expect(autoInstallMirror({ MODELS_AUTO_INSTALL: undefined, NODE_ENV: undefined })).toBe(false);
    expect(autoInstallMirror({ MODELS_AUTO_INSTALL: '1', NODE_ENV: 'test' })).toBeNull();
    expect(autoInstallMirror({ MODELS_AUTO_INSTALL: undefined, NODE_ENV: 'test' })).toBe(false);
    expect(autoInstallMirror({ MODELS_AUTO_INSTALL: 'http://mirror.local/asr-models/', NODE_ENV: 'test' })).toBe(
      'http://mirror.local/asr-models/',
    );
  });

  it('npm run models -- first-start: gives up in one line within the probe timeout when the host never answers', async () => {
    const hole = await startBlackHole();
    try {
      const started = performance.now();
      const { code, stdout } = await runScriptToEnd(
        CLI,
        ['first-start', '--models-dir', modelsDir, '--mirror', hole.url, '--probe-timeout-ms', '1500'],
        {},
      );
      expect(code).toBe(0);
      expect(stdout).toBe(
        `[models] cannot reach ${new URL(hole.url).host} (no answer within 1.5 s): staying on PocketSphinx and the built-in diarizer; to install ${BASE.name} later run \`npm run models -- download ${BASE.name}\` (offline: \`npm run models -- install ${BASE.name}.tar.bz2\`), and the diarization pair with \`npm run models -- download diarization\`\n`,
      );
      expect(performance.now() - started).toBeLessThan(15_000);
    } finally {
      await hole.close();
    }
  });

  it('npm run models -- first-start: says so at once when the host refuses connections', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/asr-models/`;
    const { code, stdout } = await runScriptToEnd(CLI, ['first-start', '--models-dir', modelsDir, '--mirror', closed], {});
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^\[models\] cannot reach 127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\): staying on PocketSphinx and the built-in diarizer; .*`npm run models -- download sherpa-onnx-whisper-base`/,
    );
    expect(stdout.trim().split('\n')).toHaveLength(1);
  });

  it('npm run models -- first-start: downloads the recommended model and diarization pair with progress lines, and the self-tests refuse bad ones', async () => {
    const { code, stdout } = await runScriptToEnd(CLI, ['first-start', '--models-dir', modelsDir, '--mirror', host.url], {});
    expect(stdout).toContain(
      `[models] no model installed: installing ${BASE.name} (recommended for CPU) from ${host.url}${BASE.name}.tar.bz2 in the background`,
    );
    expect(stdout).toMatch(/^\[models\] downloading sherpa-onnx-whisper-base: 100% /m);
    expect(stdout).toMatch(
      /^\[models\] installing sherpa-onnx-whisper-base failed: Self-test of sherpa-onnx-whisper-base failed: .*Still on PocketSphinx; retry with `npm run models -- download sherpa-onnx-whisper-base`$/m,
    );
    expect(code).toBe(1);
    expect(await readdir(modelsDir)).not.toContain(BASE.name);
    expect(stdout).toContain(`[models] self-test: decoding the test clip with ${BASE.name}...`);
    // The diarization pair, in the same process, after the recognition model.
    expect(stdout).toContain(
      `[models] no neural diarization model installed: installing sherpa-onnx-pyannote-segmentation-3-0 + wespeaker_en_voxceleb_resnet34_LM (recommended pair) from ${host.url} in the background`,
    );
    expect(stdout).toMatch(/^\[models\] downloading wespeaker_en_voxceleb_resnet34_LM: 100% /m);
    expect(stdout).toMatch(
      /^\[models\] installing the diarization pair failed: Self-test of the diarization pair sherpa-onnx-pyannote-segmentation-3-0 \+ wespeaker_en_voxceleb_resnet34_LM failed: found 1 speakers .*Still on the built-in diarizer; retry with `npm run models -- download diarization`$/m,
    );
    // The next start reports the same failure without unpacking or decoding the same archive again.
    const next = await runScriptToEnd(CLI, ['first-start', '--models-dir', modelsDir, '--mirror', host.url], {});
    expect(next.code).toBe(1);
    expect(next.stdout).not.toContain('self-test: decoding');
    expect(next.stdout).not.toContain(`unpacking and checking ${BASE.name}`);
    expect(next.stdout).toMatch(
      /^\[models\] installing sherpa-onnx-whisper-base failed: Self-test of sherpa-onnx-whisper-base failed: .*\(remembered from the self-test of .* on these same bytes, not run again; add --retest to run it again\);.*Still on PocketSphinx; retry with `npm run models -- download sherpa-onnx-whisper-base`$/m,
    );
    // With a recognition model there, only the diarization pair is installed (and refused).
    await writeFixtureModel(modelsDir, findCatalogModel('sherpa-onnx-whisper-tiny')!);
    const pairOnly = await runScriptToEnd(CLI, ['first-start', '--models-dir', modelsDir, '--mirror', host.url], {});
    expect(pairOnly.code).toBe(1);
    expect(pairOnly.stdout).not.toContain(BASE.name);
    expect(pairOnly.stdout).toMatch(/^\[models\] installing the diarization pair failed: Self-test of the diarization pair/m);
    // Nothing is downloaded when a recognition model and a diarization pair are there.
    await cp(DIARIZATION_FIXTURE_MODELS_DIR, modelsDir, { recursive: true, filter: (file) => !file.endsWith('README.md') });
    const before = host.requests.length;
    const again = await runScriptToEnd(CLI, ['first-start', '--models-dir', modelsDir, '--mirror', host.url], {});
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(host.requests.length).toBe(before);
  });

  it('the service starts on PocketSphinx at once and tries nothing with MODELS_AUTO_INSTALL=0', async () => {
    const service = await spawnService({
      DATA_DIR: join(work, `data-off-${Date.now()}`),
      MODELS_DIR: modelsDir,
      MODELS_AUTO_INSTALL: '0',
      LOG_LEVEL: 'info',
    });
    try {
      expect(logged(service.output(), 'recognition', 'engine pocketsphinx: auto, no sherpa-onnx model')).toHaveLength(1);
      await sleep(1000);
      expect(logged(service.output(), 'models')).toEqual([]);
      expect(service.output()).not.toContain('[models]');
      expect(await readdir(modelsDir)).toEqual([]);
    } finally {
      await service.kill();
    }
  });

  it('the service answers on PocketSphinx while the download runs, and the download ends with the service', async () => {
    host.stallAfter(100); // the archive is a few kB: stall early in it
    const service = await spawnService(
      { DATA_DIR: join(work, `data-stall-${Date.now()}`), MODELS_DIR: modelsDir, MODELS_AUTO_INSTALL: host.url, LOG_LEVEL: 'info' },
      SPAWN_TIMEOUT_MS,
    );
    try {
      await waitForLog(service.output, 'models', `downloading ${BASE.name}: 0%`, LOG_WAIT_MS);
      expect(host.stalled()).toBe(1);
      // The download hangs half-way, and the service answers all the same, on PocketSphinx.
      expect((await fetch(`${service.url}/health`)).ok).toBe(true);
      expect(logged(service.output(), 'recognition', 'engine pocketsphinx')).toHaveLength(1);
      expect(logged(service.output(), 'models', `no model installed: installing ${BASE.name} (recommended for CPU)`)).toHaveLength(1);
    } finally {
      await service.kill();
      host.stallAfter(null);
    }
    // Stopping the service stops its install process, which drops the connection.
    const started = performance.now();
    while (host.stalled() > 0 && performance.now() - started < LOG_WAIT_MS) await sleep(100);
    expect(host.stalled()).toBe(0);
  });

  it('the download ends with the service also when the service is killed with SIGKILL (no exit hook runs)', async () => {
    host.stallAfter(100);
    const service = await spawnService(
      { DATA_DIR: join(work, `data-kill-${Date.now()}`), MODELS_DIR: modelsDir, MODELS_AUTO_INSTALL: host.url, LOG_LEVEL: 'info' },
      SPAWN_TIMEOUT_MS,
    );
    try {
      await waitForLog(service.output, 'models', `downloading ${BASE.name}: 0%`, LOG_WAIT_MS);
      expect(host.stalled()).toBe(1);
    } finally {
      await service.kill('SIGKILL');
      host.stallAfter(null);
    }
    // The install process is tied to the service (SIGTERM when it dies): it ends, which drops the connection.
    const started = performance.now();
    while (host.stalled() > 0 && performance.now() - started < LOG_WAIT_MS) await sleep(100);
    expect(host.stalled()).toBe(0);
  });

  it('the service falls back in one line, a few seconds after it starts, when the release host is unreachable', async () => {
    const hole = await startBlackHole();
    const started = performance.now();
    const service = await spawnService(
      { DATA_DIR: join(work, `data-hole-${Date.now()}`), MODELS_DIR: modelsDir, MODELS_AUTO_INSTALL: hole.url, LOG_LEVEL: 'info' },
      SPAWN_TIMEOUT_MS,
    );
    try {
      const healthy = performance.now() - started;
      expect(logged(service.output(), 'recognition', 'engine pocketsphinx')).toHaveLength(1);
      await waitForLog(service.output, 'models', 'cannot reach', LOG_WAIT_MS);
      const fallback = performance.now() - started;
      expect(
        logged(
          service.output(),
          'models',
          `staying on PocketSphinx and the built-in diarizer; to install ${BASE.name} later run \`npm run models -- download ${BASE.name}\``,
        ),
      ).toHaveLength(1);
      expect(logged(service.output(), 'models')).toHaveLength(1); // one line, and nothing else from the install
      expect((await fetch(`${service.url}/health`)).ok).toBe(true);
      console.log(
        `unreachable host: service healthy after ${(healthy / 1000).toFixed(1)} s, fallback line after ${(fallback / 1000).toFixed(1)} s`,
      );
    } finally {
      await service.kill();
      await hole.close();
    }
  });
});
