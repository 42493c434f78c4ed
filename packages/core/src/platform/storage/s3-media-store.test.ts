import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createS3MediaStore, parseS3Location } from './s3-media-store.ts';
import { startS3Server, type S3Server } from './test-support/start-s3-server.ts';

const CREDENTIALS = { accessKeyId: 'bench-access', secretAccessKey: 'bench-secret' };

describe('the S3 media store (real @aws-sdk/client-s3 against a local S3-protocol server)', () => {
  let s3: S3Server;
  let dir: string;
  const store = (overrides: Partial<Parameters<typeof createS3MediaStore>[0]> = {}) =>
    createS3MediaStore({
      bucket: 'media',
      prefix: 'cache/',
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      ...CREDENTIALS,
      retryBaseDelayMs: 10,
      ...overrides,
    });

  beforeAll(async () => {
    s3 = await startS3Server({ buckets: ['media'], ...CREDENTIALS });
    dir = await mkdtemp(join(tmpdir(), 's3-store-'));
  });

  afterEach(() => {
    s3.failWith = null;
    s3.stall = null;
    s3.cutBodyAfter = null;
    s3.requests.length = 0;
  });

  afterAll(async () => {
    await s3?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should put a file under the prefix, report its size, read it back into the work file and delete it', async () => {
    const source = join(dir, 'source');
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    await writeFile(source, bytes);
    const media = store();
    const { location, readablePath } = await media.put('med_abc', source, bytes.length);
    expect(location).toBe('s3://media/cache/med_abc');
    expect(readablePath).toBe(source);
    expect(await stat(source)).toBeTruthy();
    expect(s3.objects.get('media/cache/med_abc')?.equals(bytes)).toBe(true);
    expect(await media.size(location)).toBe(bytes.length);
    const copy = await media.open(location, join(dir, 'copy'));
    expect((await readFile(copy)).equals(bytes)).toBe(true);
    await media.remove(location);
    expect(s3.objects.has('media/cache/med_abc')).toBe(false);
    expect(await media.size(location)).toBeNull();
    expect(s3.requests.map((r) => r.method)).toEqual(['PUT', 'HEAD', 'GET', 'DELETE', 'HEAD']);
    expect(s3.requests[0]!.headers['content-length']).toBe(String(bytes.length));
  });

  it('should retry a 503 answer with a fresh body and store the whole file', async () => {
    const source = join(dir, 'retried');
    await writeFile(source, 'x'.repeat(10_000));
    let failures = 0;
    s3.failWith = (request) => (request.method === 'PUT' && failures++ === 0 ? 503 : null);
    await store().put('med_retry', source, 10_000);
    expect(s3.requests.filter((r) => r.method === 'PUT')).toHaveLength(2);
    expect(s3.objects.get('media/cache/med_retry')?.length).toBe(10_000);
  });

  it('should give up after maxAttempts on a server that keeps failing, naming the store and the status', async () => {
    s3.failWith = () => 500;
    await expect(store({ maxAttempts: 2 }).size('s3://media/cache/med_x')).rejects.toThrow(
      /Media store: checking s3:\/\/media\/cache\/med_x failed: .*HTTP 500/,
    );
    expect(s3.requests).toHaveLength(2);
  });

  it('should read an object again from the start when its body is cut short', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));
    s3.objects.set('media/cache/med_cut', bytes);
    let gets = 0;
    s3.cutBodyAfter = (request) => (request.method === 'GET' && gets++ === 0 ? 100_000 : null);
    const copy = await store().open('s3://media/cache/med_cut', join(dir, 'cut-copy'));
    expect((await readFile(copy)).equals(bytes)).toBe(true);
    expect(s3.requests.filter((r) => r.method === 'GET')).toHaveLength(2);
  });

  it('should not retry a 501 answer, which never heals', async () => {
    s3.failWith = () => 501;
    await expect(store().size('s3://media/cache/med_501')).rejects.toThrow(/checking s3:\/\/media\/cache\/med_501 failed: .*HTTP 501/);
    expect(s3.requests).toHaveLength(1);
  });

  it('should end the retries at once when the server asks to wait longer than 10 s', async () => {
    s3.failWith = () => ({ status: 503, headers: { 'retry-after': '60' } });
    await expect(store().size('s3://media/cache/med_later')).rejects.toThrow(/HTTP 503/);
    expect(s3.requests).toHaveLength(1);
  });

  it('should name the attempts made when it gives up', async () => {
    s3.failWith = () => 503;
    await expect(store({ maxAttempts: 3 }).remove('s3://media/cache/med_busy')).rejects.toThrow(
      /Media store: deleting s3:\/\/media\/cache\/med_busy failed: .*HTTP 503.*\(3 attempts\)$/,
    );
    expect(s3.requests).toHaveLength(3);
  });

  it('should give up on a server that stops answering, after timeoutMs of silence per attempt', { timeout: 30_000 }, async () => {
    s3.stall = () => true;
    await expect(store({ timeoutMs: 300, maxAttempts: 2 }).size('s3://media/cache/med_silent')).rejects.toThrow(
      /Media store: checking s3:\/\/media\/cache\/med_silent failed: TimeoutError: .*\(2 attempts\)$/,
    );
    expect(s3.requests).toHaveLength(2);
  });

  it('should refuse wrong credentials at once without retrying', async () => {
    const source = join(dir, 'denied');
    await writeFile(source, 'abc');
    await expect(store({ accessKeyId: 'someone-else' }).put('med_denied', source, 3)).rejects.toThrow(
      /storing s3:\/\/media\/cache\/med_denied failed: .*HTTP 403/,
    );
    expect(s3.requests).toHaveLength(1);
  });

  it('should fail reading a missing object and leave no partial work file', async () => {
    const work = join(dir, 'missing-copy');
    await expect(store().open('s3://media/cache/med_gone', work)).rejects.toThrow(
      /reading s3:\/\/media\/cache\/med_gone failed: .*HTTP 404/,
    );
    await expect(stat(work)).rejects.toThrow();
  });

  it('should report a server that cannot be reached after bounded retries', async () => {
    const unreachable = createS3MediaStore({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9',
      forcePathStyle: true,
      ...CREDENTIALS,
      maxAttempts: 2,
      retryBaseDelayMs: 10,
    });
    await expect(unreachable.size('s3://media/med_x')).rejects.toThrow(/Media store: checking s3:\/\/media\/med_x failed/);
  });

  it('should still size, read and delete entries stored as local files before the switch to S3', async () => {
    const old = join(dir, 'med_old');
    await writeFile(old, 'twelve bytes');
    const media = store();
    expect(await media.size(old)).toBe(12);
    expect(await media.open(old, join(dir, 'unused'))).toBe(old);
    await media.remove(old);
    expect(await media.size(old)).toBeNull();
    expect(s3.requests).toHaveLength(0);
  });

  it('should reject a location that is not s3://bucket/key', () => {
    expect(parseS3Location('s3://media/a/b')).toEqual({ bucket: 'media', key: 'a/b' });
    expect(() => parseS3Location('/srv/data/media/med_1')).toThrow(/Not an S3 media location/);
  });
});
