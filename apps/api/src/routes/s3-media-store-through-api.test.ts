import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3Server, startS3Server, startTranscriptionServer, type TranscriptionServer } from '@transcribe/core/testing';
import { pollPrediction } from '../test-support/poll-prediction.ts';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = 'librispeech-test-clean/1089-134686-0001.wav';

/** MEDIA_STORE=s3: stored downloads go to an S3-protocol server (real @aws-sdk/client-s3), not DATA_DIR/media. */
describe('the S3 media store through the API', () => {
  let s3: S3Server;
  let asr: TranscriptionServer;
  let files: FileServer;
  let t: TestService;

  beforeAll(async () => {
    s3 = await startS3Server({ buckets: ['media'], accessKeyId: 'minio-user' });
    asr = await startTranscriptionServer();
    files = await serveFiles(AUDIO_DIR);
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'openai-compatible',
      ASR_BASE_URL: asr.baseUrl,
      ASR_MODEL: 'whisper-1',
      MEDIA_STORE: 's3',
      S3_BUCKET: 'media',
      S3_PREFIX: 'cache/',
      S3_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: '1',
      S3_ACCESS_KEY_ID: 'minio-user',
      S3_SECRET_ACCESS_KEY: 'minio-secret',
    });
  });

  afterAll(async () => {
    await t?.stop();
    await files?.close();
    await asr?.close();
    await s3?.close();
  });

  async function transcribe(link: string): Promise<Record<string, unknown>> {
    const response = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: { audio: link, language: 'en', output_format: 'json' } }),
    });
    expect(response.status).toBe(201);
    return pollPrediction(t.replicateBase, t.key, ((await response.json()) as { id: string }).id);
  }

  it('should store the download in the bucket, then serve a repeat of the link from it', async () => {
    const link = `${files.url}/${CLIP}?first`;
    const first = await transcribe(link);
    expect(first.status).toBe('succeeded');
    const keys = [...s3.objects.keys()];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^media\/cache\/med_[0-9a-f]{24}$/);
    expect(s3.objects.get(keys[0]!)!.equals(await readFile(join(AUDIO_DIR, CLIP)))).toBe(true);
    expect(await readdir(join(t.dataDir, 'media')).catch(() => [])).toEqual([]);

    s3.requests.length = 0;
    const repeat = await transcribe(link);
    expect(repeat.status).toBe('succeeded');
    expect(String(repeat.logs)).toContain('transcript taken from the cache');
    expect(repeat.output).toEqual(first.output);
    expect(s3.requests.map((r) => `${r.method} ${r.bucket}/${r.key}`)).toEqual([`HEAD ${keys[0]}`, `GET ${keys[0]}`]);
  });

  it('should download again under a new handle when the stored object is gone from the bucket', async () => {
    const link = `${files.url}/${CLIP}?lost`;
    expect((await transcribe(link)).status).toBe('succeeded');
    const before = new Set(s3.objects.keys());
    const lost = [...before].at(-1)!;
    s3.objects.delete(lost);
    const again = await transcribe(link);
    expect(again.status).toBe('succeeded');
    expect(String(again.logs)).toMatch(/downloaded \d+ bytes/);
    expect(String(again.logs)).not.toContain('taken from the cache');
    const added = [...s3.objects.keys()].filter((key) => !before.has(key));
    expect(added).toHaveLength(1);
    expect(added[0]).not.toBe(lost);
  });

  async function upload(extra: Record<string, string> = {}): Promise<Response> {
    const form = new FormData();
    form.append('input.audio', new Blob([await readFile(join(AUDIO_DIR, CLIP))], { type: 'audio/wav' }), 'clip.wav');
    form.append('input.language', 'en');
    for (const [name, value] of Object.entries(extra)) form.append(`input.${name}`, value);
    return fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
      body: form,
    });
  }

  it('should keep an upload in the bucket (not DATA_DIR) for the worker and delete it once the prediction ends', async () => {
    s3.requests.length = 0;
    const response = await upload();
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(await readdir(join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]); // moved to the bucket at once
    const done = await pollPrediction(t.replicateBase, t.key, id);
    expect(done.status).toBe('succeeded');
    expect(String(done.output)).not.toBe('');
    const key = `media/cache/uploads/${id}`;
    const seen = s3.requests.filter((r) => `${r.bucket}/${r.key}` === key).map((r) => r.method);
    expect(seen).toEqual(['PUT', 'GET', 'DELETE']);
    expect(s3.objects.has(key)).toBe(false);
  });

  it('should answer 503 and keep nothing when the bucket refuses the upload', async () => {
    s3.failWith = (request) => (request.method === 'PUT' ? 403 : null);
    try {
      const response = await upload();
      expect(response.status).toBe(503);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/could not store the uploaded file/);
    } finally {
      s3.failWith = null;
    }
    expect(await readdir(join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);
    expect([...s3.objects.keys()].filter((key) => key.includes('/uploads/'))).toEqual([]);
  });
});
