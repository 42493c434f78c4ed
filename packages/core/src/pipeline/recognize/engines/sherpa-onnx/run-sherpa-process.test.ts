import { describe, expect, it } from 'vitest';
import { buildSherpaConfig } from './build-sherpa-config.ts';
import { findCatalogModel } from '../../models/model-catalog.ts';
import { runSherpaProcess, type SherpaJob } from './run-sherpa-process.ts';

const MOONSHINE = findCatalogModel('sherpa-onnx-moonshine-tiny-en-int8')!;

/** A probe job on a model folder that does not exist: sherpa-onnx refuses the config. */
const job: SherpaJob = {
  modelName: MOONSHINE.name,
  wavPath: '',
  dataOffset: 0,
  dataBytes: 0,
  sampleRate: 16000,
  utterances: [],
  config: buildSherpaConfig({ model: MOONSHINE, directory: '/nonexistent/moonshine', efficiency: null, language: null, maxThreads: 1 }),
  languageId: null,
  detectSeconds: 0,
  probeOnly: true,
};

describe('runSherpaProcess', () => {
  it('should pass on sherpa-onnx config errors with the file it names on stderr', async () => {
    const error = await runSherpaProcess(job, { timeoutMs: 60_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'engine_unavailable' });
    expect((error as Error).message).toMatch(
      /^sherpa-onnx could not load model sherpa-onnx-moonshine-tiny-en-int8: Please check your config! \(.*\/nonexistent\/moonshine\/.* does not exist/,
    );
  });

  it('should kill the process and fail when it takes too long', async () => {
    const error = await runSherpaProcess(job, { timeoutMs: 5 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'recognition_failed',
      message: 'sherpa-onnx (sherpa-onnx-moonshine-tiny-en-int8) took longer than 0 s',
    });
  });

  it('should reject with the abort reason when aborted', async () => {
    const controller = new AbortController();
    const running = runSherpaProcess(job, { timeoutMs: 60_000, signal: controller.signal });
    controller.abort(new Error('shutting down'));
    await expect(running).rejects.toThrow('shutting down');
    await expect(runSherpaProcess(job, { timeoutMs: 60_000, signal: controller.signal })).rejects.toThrow('shutting down');
  });
});
