import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors/app-error.ts';
import { installModel } from './install-model.ts';
import { inspectInstalledModel } from './list-installed-models.ts';
import { findCatalogModel, isStreamingModel, MODEL_CATALOG } from './model-catalog.ts';
import { readModelsLock } from './install/models-lock.ts';
import { packTarBz2, writeFixtureModel } from './install/serve-release-files.test-helper.ts';

const STREAMING = findCatalogModel('sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-80ms-int8')!;

/**
 * `npm run models` installs a streaming model as it installs the others (lock, self-test on the
 * shared clip): here the random-weight fixture in the real streaming NeMo CTC layout, from a local
 * folder and from a .tar.bz2 of it (packed with Debian's tar). Its self-test decodes the shipped
 * clip self-test/jfk.wav through sherpa-onnx's OnlineRecognizer in a child process (the engine's
 * recording path) and fails on its nonsense words, as it must for a model that is not a real one:
 * activation then needs --force. (An integration test: a child process, tar, a recording.)
 */
describe('installing a streaming model', () => {
  let work: string;
  let modelsDir: string;
  let folder: string;

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'install-streaming-'));
    modelsDir = path.join(work, 'models');
    folder = await writeFixtureModel(path.join(work, 'src'), STREAMING);
    await packTarBz2(path.join(work, 'src'), STREAMING.name, path.join(work, 'streaming.tar.bz2'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('should list the streaming models in the catalog', () => {
    const streaming = MODEL_CATALOG.filter(isStreamingModel).map((model) => model.name);
    expect(streaming).toEqual([
      'sherpa-onnx-streaming-zipformer-en-2023-06-26',
      'sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-80ms-int8',
      'sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-480ms-int8',
      'sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-1040ms-int8',
    ]);
    // after every offline model: never the default while an offline model is installed
    const firstStreaming = MODEL_CATALOG.findIndex(isStreamingModel);
    expect(MODEL_CATALOG.slice(firstStreaming).every(isStreamingModel)).toBe(true);
  });

  it('should self-test it through the OnlineRecognizer, refuse it without --force, and install it from a folder and from an archive with the same pin', async () => {
    const refused = await installModel({ modelsDir, model: STREAMING, source: { kind: 'folder', directory: folder }, selfTestThreads: 1 }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AppError);
    // decoded (words came out), and judged by their error rate: not a load or decode failure
    expect((refused as AppError).message).toMatch(/^Self-test of sherpa-onnx-nemo-streaming-fast-conformer-ctc-en-80ms-int8 failed: word error rate/);

    const installed = await installModel({ modelsDir, model: STREAMING, source: { kind: 'folder', directory: folder }, force: true, selfTestThreads: 1 });
    expect(installed).toMatchObject({ status: 'installed', pin: 'new', forced: true });
    expect(installed.selfTest).toMatchObject({ passed: false, audioSeconds: 11 });
    expect(installed.selfTest!.text.split(' ').length).toBeGreaterThan(5);
    expect((await inspectInstalledModel(modelsDir, STREAMING)).status).toBe('ready');
    expect((await readModelsLock(modelsDir)).models[STREAMING.name]?.contentSha256).toMatch(/^[0-9a-f]{64}$/);

    const again = await installModel({
      modelsDir,
      model: STREAMING,
      source: { kind: 'archive', file: path.join(work, 'streaming.tar.bz2') },
      force: true,
      selfTestThreads: 1,
    });
    expect(again).toMatchObject({ status: 'installed', pin: 'matched' });
  });
});
