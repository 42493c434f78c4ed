import { cp, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCatalogModel } from '@transcribe/core';
// The random-weight models of the real sherpa-onnx layout (scripts/fixtures/make-sherpa-fixture-models.py).
import { FIXTURE_MODELS_DIR } from '@transcribe/core/testing';
import { createLinkPrediction } from '../test-support/fake-engine-service.ts';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const TINY = findCatalogModel('sherpa-onnx-whisper-tiny')!;
/** An absolute path: a `/` that starts a word (not the `/` inside `npm run models -- …` or a URL's `//`). */
const ABSOLUTE_PATH = /(^|[\s(:'"`=])\/(?!\/)\S/;

/**
 * A model folder that breaks while the service runs (the start-up probe passed): the prediction
 * fails `engine_unavailable` with a message the API client may read, so it names the model, what
 * is wrong and the command that repairs it, but no path of the server (the operator's log keeps them).
 */
describe('predictions on a sherpa-onnx model broken after start', () => {
  let t: TestService;
  let files: FileServer;
  let modelsDir: string;
  const folder = () => join(modelsDir, TINY.name);

  beforeAll(async () => {
    modelsDir = await mkdtemp(join(tmpdir(), 'broken-models-'));
    await cp(join(FIXTURE_MODELS_DIR, TINY.name), folder(), { recursive: true });
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'sherpa-onnx',
      MODELS_DIR: modelsDir,
      SHERPA_MODEL: TINY.name,
      MODELS_AUTO_INSTALL: '0',
    });
    files = await serveFiles(AUDIO_DIR);
  });
  afterAll(async () => {
    await files?.close();
    await t?.stop();
    await rm(modelsDir, { recursive: true, force: true });
  });

  const fail = async (audio: string) => {
    const id = await createLinkPrediction(t.url, t.key, { input: { audio: `${files.url}/${audio}`, language: 'en' } });
    const done = await pollPrediction(t.replicateBase, t.key, id);
    expect(done.status).toBe('failed');
    return { error: String(done.error), logs: String(done.logs) };
  };

  const expectNoPath = (text: string) => {
    expect(text).not.toContain(modelsDir);
    expect(text).not.toMatch(ABSOLUTE_PATH);
  };

  it('should name a truncated model file without its path', async () => {
    const decoder = join(folder(), TINY.files.decoder!);
    const bytes = await readFile(decoder);
    try {
      await truncate(decoder, Math.floor(bytes.length / 2));
      const { error, logs } = await fail('jfk.wav');
      expect(error).toMatch(/sherpa-onnx/);
      expect(error).toContain(`npm run models -- download ${TINY.name}`);
      expectNoPath(error);
      expectNoPath(logs);
    } finally {
      await writeFile(decoder, bytes);
    }
  });

  it('should name a missing model file by its name only', async () => {
    const tokens = join(folder(), TINY.files.tokens!);
    const bytes = await readFile(tokens);
    try {
      await rm(tokens);
      const { error, logs } = await fail('jfk.wav');
      expect(error).toContain(`${TINY.files.tokens} is missing`);
      expect(error).toContain(`npm run models -- download ${TINY.name}`);
      expectNoPath(error);
      expectNoPath(logs);
    } finally {
      await writeFile(tokens, bytes);
    }
  });

  it('should name an encoder that is not an ONNX model without its path', async () => {
    const encoder = join(folder(), TINY.files.encoder!);
    const bytes = await readFile(encoder);
    try {
      await writeFile(encoder, 'not a model');
      const { error, logs } = await fail('jfk.wav');
      expect(error).toContain(`${TINY.files.encoder} is not an ONNX model`);
      expectNoPath(error);
      expectNoPath(logs);
    } finally {
      await writeFile(encoder, bytes);
    }
  });
});
