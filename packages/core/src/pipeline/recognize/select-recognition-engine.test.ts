import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors/app-error.ts';
import { findCatalogModel } from './models/model-catalog.ts';
import { createOpenAiAsrEngine } from './engines/openai-asr/openai-asr-engine.ts';
import type { RecognitionEngine } from './recognition-engine.ts';
import { selectRecognitionEngine, type SelectRecognitionEngineOptions } from './select-recognition-engine.ts';
import { writePlaceholderModel } from './test-support/write-placeholder-model.ts';

const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
const MOONSHINE = findCatalogModel('sherpa-onnx-moonshine-tiny-en-int8')!;

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('selectRecognitionEngine', () => {
  let modelsDir: string;
  let remoteCalls: number;
  const remote = (): RecognitionEngine => {
    remoteCalls++;
    return createOpenAiAsrEngine({
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: '',
      model: 'whisper-1',
      timeoutMs: 1000,
      maxRetries: 0,
      concurrency: 1,
    });
  };
  const select = (overrides: Partial<SelectRecognitionEngineOptions>) =>
    selectRecognitionEngine({ choice: 'auto', modelsDir, createRemoteEngine: remote, probeSherpa: false, ...overrides });

  beforeEach(async () => {
    modelsDir = await mkdtemp(path.join(tmpdir(), 'select-engine-'));
    remoteCalls = 0;
  });
  afterEach(async () => {
    await rm(modelsDir, { recursive: true, force: true });
  });

  it('should fall back to pocketsphinx when no model is installed and no ASR base URL is set', async () => {
    const { engine, reason } = await select({});
    expect(engine.name).toBe('pocketsphinx');
    expect(reason).toBe(`pocketsphinx: auto, no sherpa-onnx model in ${modelsDir} and no ASR_BASE_URL`);
    expect(remoteCalls).toBe(0);
  });

  it('should take the remote engine before pocketsphinx when an ASR base URL is set', async () => {
    const { engine, reason } = await select({ remoteBaseUrl: 'http://127.0.0.1:9/v1' });
    expect(engine.name).toBe('openai-compatible');
    expect(reason).toBe(`openai-compatible: auto, no sherpa-onnx model in ${modelsDir}, ASR_BASE_URL is set`);
    expect(remoteCalls).toBe(1);
  });

  it('should take sherpa-onnx first when a model is ready, with every ready model in catalog order', async () => {
    await writePlaceholderModel(modelsDir, MOONSHINE);
    await writePlaceholderModel(modelsDir, TINY);
    const { engine, reason } = await select({ remoteBaseUrl: 'http://127.0.0.1:9/v1' });
    expect(engine.name).toBe('sherpa-onnx');
    expect(reason).toBe(`sherpa-onnx with ${TINY.name}, ${MOONSHINE.name} (default ${TINY.name}): auto, ready in ${modelsDir}`);
    expect(engine.languages).toHaveLength(99);
    expect(remoteCalls).toBe(0);
  });

  it('should use the models named by SHERPA_MODEL, the first as default', async () => {
    await writePlaceholderModel(modelsDir, MOONSHINE);
    await writePlaceholderModel(modelsDir, TINY);
    const { engine, reason } = await select({ sherpaModels: [MOONSHINE.name] });
    expect(engine.languages).toEqual(['en']);
    expect(reason).toContain(`(default ${MOONSHINE.name})`);
  });

  it('should stop start-up on a broken or missing model rather than fall back silently', async () => {
    await writePlaceholderModel(modelsDir, TINY, ['tiny-tokens.txt']);
    const broken = await rejection(select({}));
    expect(broken.code).toBe('engine_unavailable');
    expect(broken.message).toContain(`${path.join(modelsDir, TINY.name, 'tiny-tokens.txt')} is missing`);
    expect(broken.message).toContain('`npm run models -- download sherpa-onnx-whisper-tiny`');
    const missing = await rejection(select({ sherpaModels: [MOONSHINE.name] }));
    expect(missing.message).toContain('`npm run models -- download sherpa-onnx-moonshine-tiny-en-int8`');
  });

  it('should load the default model at start-up and fail with sherpa-onnx reason when it is damaged', async () => {
    await writePlaceholderModel(modelsDir, MOONSHINE);
    const error = await rejection(select({ probeSherpa: true }));
    expect(error.message).toMatch(
      /while loading model sherpa-onnx-moonshine-tiny-en-int8: .*Protobuf parsing failed.*reinstall it with `npm run models -- download sherpa-onnx-moonshine-tiny-en-int8`$/,
    );
  });

  it('should insist on a named engine being available', async () => {
    const sherpa = await rejection(select({ choice: 'sherpa-onnx' }));
    expect(sherpa.message).toBe(
      `RECOGNITION_ENGINE=sherpa-onnx but no model is installed in ${modelsDir}: install one with \`npm run models -- download sherpa-onnx-whisper-base\` (all models: \`npm run models -- catalog\`)`,
    );
    const remoteError = await rejection(select({ choice: 'openai-compatible' }));
    expect(remoteError.message).toBe('RECOGNITION_ENGINE=openai-compatible needs ASR_BASE_URL');
    await writePlaceholderModel(modelsDir, TINY);
    const { engine, reason } = await select({ choice: 'pocketsphinx' });
    expect([engine.name, reason]).toEqual(['pocketsphinx', 'pocketsphinx: RECOGNITION_ENGINE=pocketsphinx']);
    const missingBinary = await rejection(
      select({ choice: 'pocketsphinx', pocketsphinx: { binaryPath: '/nonexistent/pocketsphinx_batch' } }),
    );
    expect(missingBinary.message).toContain('/nonexistent/pocketsphinx_batch is missing');
  });
});
