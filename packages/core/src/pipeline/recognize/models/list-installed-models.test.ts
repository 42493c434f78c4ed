import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../platform/errors/app-error.ts';
import { assertModelReady, inspectInstalledModel, listInstalledModels } from './list-installed-models.ts';
import { findCatalogModel } from './model-catalog.ts';
import { writePlaceholderModel } from '../test-support/write-placeholder-model.ts';

const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const PARAKEET = findCatalogModel('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8')!;

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('listInstalledModels', () => {
  let modelsDir: string;
  beforeEach(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'models-list-'));
  });
  afterEach(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('should list nothing for an empty or missing MODELS_DIR', async () => {
    expect(await listInstalledModels(modelsDir)).toEqual({ models: [], unknown: [] });
    expect(await listInstalledModels(path.join(modelsDir, 'nope'))).toEqual({ models: [], unknown: [] });
  });

  it('should report complete placeholder installs as ready and other folders as unknown, skipping downloads and the lock file', async () => {
    await writePlaceholderModel(modelsDir, TINY);
    await writePlaceholderModel(modelsDir, PARAKEET);
    await mkdir(path.join(modelsDir, 'my-own-model'));
    await mkdir(path.join(modelsDir, '.download-sherpa-onnx-whisper-base-x'));
    await mkdir(path.join(modelsDir, '.downloads'));
    await writeFile(path.join(modelsDir, 'models.lock.json'), '{"lockfileVersion":1,"models":{}}\n');
    const { models, unknown } = await listInstalledModels(modelsDir);
    expect(models.map((report) => [report.model.name, report.status])).toEqual([
      ['sherpa-onnx-whisper-tiny', 'ready'],
      ['sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8', 'ready'],
    ]);
    expect(models[0]!.bytes).toBeGreaterThan(0);
    expect(models[0]!.install).toBeNull();
    expect(unknown).toEqual(['my-own-model']);
  });

  it('should name every missing, empty or non-ONNX file of a broken install', async () => {
    const directory = await writePlaceholderModel(modelsDir, TINY, ['tiny-decoder.int8.onnx']);
    await truncate(path.join(directory, 'tiny-tokens.txt'), 0);
    await writeFile(path.join(directory, 'tiny-encoder.int8.onnx'), 'GGML not onnx');
    const report = await inspectInstalledModel(modelsDir, TINY);
    expect(report.status).toBe('broken');
    expect(report.problems).toEqual([
      `${directory}/tiny-encoder.int8.onnx is not an ONNX model`,
      `${directory}/tiny-decoder.int8.onnx is missing`,
      `${directory}/tiny-tokens.txt is empty`,
    ]);
  });
});

describe('assertModelReady', () => {
  let modelsDir: string;
  beforeEach(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'models-assert-'));
  });
  afterEach(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('should fail for a model that is not installed, naming the folder and the download command', async () => {
    const error = await rejection(assertModelReady(modelsDir, TINY.name));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toContain(path.join(modelsDir, TINY.name));
    expect(error.message).toContain('`npm run models -- download sherpa-onnx-whisper-tiny`');
  });

  it('should fail for a broken install, naming the missing file and the command that fixes it', async () => {
    await writePlaceholderModel(modelsDir, TINY, ['tiny-tokens.txt']);
    const error = await rejection(assertModelReady(modelsDir, TINY.name));
    expect(error.code).toBe('engine_unavailable');
    expect(error.message).toContain(`${path.join(modelsDir, TINY.name, 'tiny-tokens.txt')} is missing`);
    expect(error.message).toContain('`npm run models -- download sherpa-onnx-whisper-tiny`');
  });

  it('should fail for a name the catalog does not have, pointing at the catalog', async () => {
    const error = await rejection(assertModelReady(modelsDir, 'whisper-large-v9'));
    expect(error.message).toMatch(/Unknown sherpa-onnx model "whisper-large-v9".*sherpa-onnx-whisper-tiny.*npm run models -- catalog/);
  });

  it('should accept a complete install', async () => {
    await writePlaceholderModel(modelsDir, TINY);
    expect((await assertModelReady(modelsDir, TINY.name)).status).toBe('ready');
  });
});
