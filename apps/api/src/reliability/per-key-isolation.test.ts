import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@transcribe/core';
import { isSettled, waitForPrediction, createLinkPrediction } from '../test-support/fake-engine-service.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP_DIR = join(AUDIO_DIR, 'librispeech-test-clean');

describe('per-key isolation of predictions, files and usage', () => {
  let t: TestService;
  let files: FileServer;
  let other: string;
  let predictionId: string;
  let fileId: string;
  let fileUrl: string;

  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${t.replicateBase}/v1${path}`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });

  beforeAll(async () => {
    t = await startTestService('pglite', { RECOGNITION_ENGINE: 'fake', ALLOW_FAKE_ENGINE: '1', PRICE_PER_MINUTE: '1' });
    files = await serveFiles(CLIP_DIR);
    other = (await createApiKey(t.service.ctx.database.db, 'other')).secret;
    predictionId = await createLinkPrediction(t.url, t.key, { input: { audio: `${files.url}/1089-134686-0001.wav` } });
    expect((await waitForPrediction(t.url, t.key, predictionId, isSettled, 60_000)).status).toBe('succeeded');
    const form = new FormData();
    form.append('content', new Blob([await readFile(join(CLIP_DIR, '1089-134686-0001.wav'))]), 'a.wav');
    const uploaded = await call(t.key, '/files', { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { id: string; urls: { get: string } };
    fileId = file.id;
    fileUrl = file.urls.get;
  });

  afterAll(async () => {
    await files?.close();
    await t?.stop();
  });

  it.each([
    ['GET', `/predictions/{p}`],
    ['POST', `/predictions/{p}/cancel`],
    ['GET', `/predictions/{p}/output.txt`],
    ['GET', `/files/{f}`],
    ['GET', `/files/{f}/download`],
    ['DELETE', `/files/{f}`],
  ])('should answer 404 to %s %s with another key', async (method, template) => {
    const path = template.replace('{p}', predictionId).replace('{f}', fileId);
    const response = await call(other, path, { method });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: string }).detail).not.toMatch(/other key|belongs/i); // no hint that it exists
    expect((await call(t.key, path.replace('/cancel', ''))).status).toBe(200); // the owner still reaches it
  });

  it('should list only the own predictions and files', async () => {
    const predictions = (await (await call(other, '/predictions')).json()) as { results: unknown[] };
    const fileList = (await (await call(other, '/files')).json()) as { results: unknown[] };
    expect(predictions.results).toEqual([]);
    expect(fileList.results).toEqual([]);
    expect(((await (await call(t.key, '/predictions')).json()) as { results: { id: string }[] }).results.map((p) => p.id)).toContain(
      predictionId,
    );
  });

  it('should not let another key transcribe a file it does not own', async () => {
    const response = await call(other, '/models/service/transcribe/predictions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: fileUrl } }),
    });
    expect([404, 422]).toContain(response.status);
  });

  it('should count usage per key', async () => {
    const mine = (await (await call(t.key, '/account')).json()) as { usage: { predictions: number } };
    const theirs = (await (await call(other, '/account')).json()) as { usage: { predictions: number } };
    expect(mine.usage.predictions).toBe(1);
    expect(theirs.usage.predictions).toBe(0);
  });

  it('should keep the earlier interface variant (/v1) isolated too', async () => {
    const response = await fetch(`${t.url}/v1/predictions/${predictionId}`, { headers: { authorization: `Bearer ${other}` } });
    expect(response.status).toBe(404);
  });
});
