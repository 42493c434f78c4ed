import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictions } from '@transcribe/core';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { multipartBody, postStream, zeros } from '../test-support/stream-upload.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = 'librispeech-test-clean/1089-134686-0001.wav';
/** A small limit so refusals are fast; the real 300 MiB is exercised in upload-limit.test.ts. */
const LIMIT = 1024 * 1024;

interface Created {
  id: string;
  status: string;
  input: Record<string, unknown>;
}

describe('every way to create a prediction with a recording (spec 4.1, 4.2)', () => {
  let t: TestService;
  let clip: Buffer;
  let modelUrl: string;
  const auth = () => ({ authorization: `Bearer ${t.key}` });

  beforeAll(async () => {
    t = await startTestService('pglite', { MAX_MEDIA_BYTES: String(LIMIT) });
    clip = await readFile(join(AUDIO_DIR, CLIP));
    modelUrl = `${t.replicateBase}/v1/models/service/transcribe/predictions`;
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function expectCreated(response: Response): Promise<Created> {
    const body = (await response.json()) as Created & { detail?: string };
    expect(response.status, body.detail).toBe(201);
    expect(body.status).toBe('processing');
    return body;
  }

  async function expectSucceeded(id: string): Promise<Record<string, unknown>> {
    const done = await pollPrediction(t.replicateBase, t.key, id);
    expect(done.status, String(done.error)).toBe('succeeded');
    return done;
  }

  it('should transcribe a multipart upload and convert the text parts to their types', async () => {
    const form = new FormData();
    form.append('input.audio', new Blob([clip], { type: 'audio/wav' }), 'clip.wav');
    form.append('input.output_format', 'text');
    form.append('input.speakers', '1');
    form.append('input.multilingual', 'false');
    form.append('input.language', 'null');
    form.append('input.post_process', '[]');
    const created = await expectCreated(await fetch(modelUrl, { method: 'POST', headers: auth(), body: form }));
    expect(created.input).toMatchObject({ output_format: 'text', speakers: 1, multilingual: false, language: null, post_process: [] });
    const done = await expectSucceeded(created.id);
    const output = done.output as { transcript: string; results: object };
    expect(output.results).toEqual({});
    expect(output.transcript).toMatch(/^\[\d\d:\d\d:\d\d\.\d\d - \d\d:\d\d:\d\d\.\d\d\] \S/);
    expect(JSON.stringify(done)).not.toContain(t.dataDir);
  });

  it('should transcribe a raw application/octet-stream body with parameters in the query string', async () => {
    const response = await fetch(`${t.replicateBase}/models/service/transcribe/predictions?input.output_format=srt`, {
      method: 'POST',
      headers: {
        ...auth(),
        'content-type': 'application/octet-stream',
        'x-service-body-field': 'input.audio',
        'content-disposition': 'attachment; filename="clip.wav"',
      },
      body: clip,
    });
    const created = await expectCreated(response);
    expect(created.input).toEqual({ output_format: 'srt' });
    const done = await expectSucceeded(created.id);
    expect(String(done.output)).toMatch(/^1\r?\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}/);
  });

  it('should transcribe a file uploaded with POST /v1/files and named by its urls.get', async () => {
    const form = new FormData();
    form.append('content', new Blob([clip], { type: 'audio/wav' }), 'clip.wav');
    form.append('metadata', new Blob([JSON.stringify({ purpose: 'test' })], { type: 'application/json' }));
    const uploaded = await fetch(`${t.replicateBase}/v1/files`, { method: 'POST', headers: auth(), body: form });
    expect(uploaded.status).toBe(201);
    const file = (await uploaded.json()) as { id: string; size: number; urls: { get: string }; checksums: { sha256: string } };
    expect(file.size).toBe(clip.length);
    expect(file.urls.get).toBe(`${t.service.ctx.config.apiBaseUrl}/files/${file.id}`);
    const response = await fetch(`${t.replicateBase}/v1/predictions`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'service/transcribe', input: { audio: file.urls.get, output_format: 'text' } }),
    });
    const created = await expectCreated(response);
    // Deleting the file does not take the recording away from the prediction.
    expect((await fetch(file.urls.get, { method: 'DELETE', headers: auth() })).status).toBe(204);
    const done = await expectSucceeded(created.id);
    expect(String(done.output)).toMatch(/\S/);
  });

  it('should transcribe a data: URI as the Python client sends a local file', async () => {
    const response = await fetch(modelUrl, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: `data:audio/x-wav;base64,${clip.toString('base64')}`, output_format: 'json' } }),
    });
    const done = await expectSucceeded((await expectCreated(response)).id);
    expect((done.output as { source: { format: string } }).source.format).toBe('wav');
  });

  describe('over the size limit', () => {
    const uploads = () => readdir(join(t.dataDir, 'uploads')).catch(() => []);

    it('should answer a streamed multipart upload with 413 while the body is still arriving', async () => {
      const before = await t.service.ctx.database.db.$count(predictions);
      const kept = await uploads();
      const total = 64 * LIMIT;
      const answer = await postStream(
        modelUrl,
        { ...auth(), 'content-type': 'multipart/form-data; boundary=b0undary' },
        multipartBody('b0undary', [], 'input.audio', zeros(total, 64 * 1024)),
      );
      expect(answer.status).toBe(413);
      expect((answer.body as { detail: string }).detail).toMatch(/larger than the 1\.0 MiB limit/);
      expect(answer.sentWhenAnswered).toBeLessThan(total / 2);
      expect(await t.service.ctx.database.db.$count(predictions)).toBe(before);
      expect(await uploads()).toEqual(kept);
    });

    it('should answer a streamed octet-stream body with 413 while the body is still arriving', async () => {
      const kept = await uploads();
      const total = 64 * LIMIT;
      const answer = await postStream(
        modelUrl,
        { ...auth(), 'content-type': 'application/octet-stream', 'x-service-body-field': 'input.audio' },
        zeros(total, 64 * 1024),
      );
      expect(answer.status).toBe(413);
      expect(answer.contentType).toMatch(/application\/problem\+json/);
      expect(answer.sentWhenAnswered).toBeLessThan(total / 2);
      expect(await uploads()).toEqual(kept);
    });

    it('should refuse a declared Content-Length over the limit before reading the body', async () => {
      const answer = await postStream(
        modelUrl,
        {
          ...auth(),
          'content-type': 'application/octet-stream',
          'x-service-body-field': 'input.audio',
          'content-length': String(LIMIT + 1),
        },
        zeros(LIMIT + 1, 64 * 1024),
        { stopAfterAnswer: true },
      );
      expect(answer.status).toBe(413);
      expect((answer.body as { detail: string }).detail).toMatch(/limit/);
    });

    it('should refuse a data: URI whose recording is over the limit with 413', async () => {
      const response = await fetch(modelUrl, {
        method: 'POST',
        headers: { ...auth(), 'content-type': 'application/json' },
        body: JSON.stringify({ input: { audio: `data:audio/wav;base64,${Buffer.alloc(LIMIT + 1).toString('base64')}` } }),
      });
      expect(response.status).toBe(413);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/limit/);
    });
  });
});
