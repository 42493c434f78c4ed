import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictions } from '@transcribe/core';
import { multipartBody, postStream, watchRss, zeros } from '../test-support/stream-upload.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** The limit of spec 8: 300 MiB (the service default). */
const LIMIT = 300 * 1024 * 1024;
/** Memory a streamed upload may add, far below the body size. */
const MAX_RSS_GROWTH = 100 * 1024 * 1024;

describe('uploads over the real 300 MiB limit (spec 8)', () => {
  let t: TestService;

  beforeAll(async () => {
    t = await startTestService('pglite', { WORKER_CONCURRENCY: '0' });
  });

  afterAll(async () => {
    await t?.stop();
  });

  async function expectRefusedWithFlatMemory(send: () => ReturnType<typeof postStream>): Promise<void> {
    const rss = watchRss();
    const answer = await send();
    const growth = rss.stop();
    console.log(`RSS growth during the upload: ${(growth / 1024 / 1024).toFixed(1)} MB`);
    expect(answer.status).toBe(413);
    expect(answer.contentType).toMatch(/json/);
    expect((answer.body as { detail: string }).detail).toMatch(/larger than the 300 MiB limit/);
    expect(growth).toBeLessThan(MAX_RSS_GROWTH);
    expect(await readdir(join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);
    expect(await t.service.ctx.database.db.$count(predictions)).toBe(0);
  }

  it('should refuse a multipart input.audio of 300 MiB + 1 byte with 413 while memory stays flat', async () => {
    await expectRefusedWithFlatMemory(() =>
      postStream(
        `${t.replicateBase}/v1/models/service/transcribe/predictions`,
        { authorization: `Bearer ${t.key}`, 'content-type': 'multipart/form-data; boundary=xyz' },
        multipartBody('xyz', [['input.output_format', 'text']], 'input.audio', zeros(LIMIT + 1)),
      ),
    );
  });

  it('should refuse an octet-stream body of 300 MiB + 1 byte with 413 while memory stays flat', async () => {
    await expectRefusedWithFlatMemory(() =>
      postStream(
        `${t.replicateBase}/v1/models/service/transcribe/predictions?input.output_format=text`,
        { authorization: `Bearer ${t.key}`, 'content-type': 'application/octet-stream', 'x-service-body-field': 'input.audio' },
        zeros(LIMIT + 1),
      ),
    );
  });

  it('should refuse a files API upload of 300 MiB + 1 byte with 413 and store no file', async () => {
    await expectRefusedWithFlatMemory(() =>
      postStream(
        `${t.replicateBase}/v1/files`,
        { authorization: `Bearer ${t.key}`, 'content-type': 'multipart/form-data; boundary=abc' },
        multipartBody('abc', [], 'content', zeros(LIMIT + 1)),
      ),
    );
    const list = await fetch(`${t.replicateBase}/v1/files`, { headers: { authorization: `Bearer ${t.key}` } });
    expect(((await list.json()) as { results: unknown[] }).results).toEqual([]);
  });
});

describe('links over the 300 MiB limit (spec 8): the sizes in the message never read the same', () => {
  let t: TestService;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    // Answers with a Content-Length from the path and never sends the body: the download must stop at the header.
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(Number(req.url!.slice(1))) });
      res.flushHeaders();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await startTestService('pglite');
  });

  afterAll(async () => {
    await t?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  it.each([
    [LIMIT + 1024, 'The recording is larger (314573824 bytes) than the 300 MiB limit.'],
    [LIMIT + 10 * 1024 * 1024 + 5000, 'The recording is larger (310 MiB) than the 300 MiB limit.'],
    [LIMIT + 6 * 1024 * 1024, 'The recording is larger (306 MiB) than the 300 MiB limit.'],
  ])('should fail a link of %i bytes saying %j, with error_code media_too_large', async (bytes, message) => {
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json', prefer: 'wait=30' },
      body: JSON.stringify({ input: { audio: `${base}/${bytes}` } }),
    });
    const done = (await answer.json()) as { status: string; error: string; error_code: string };
    expect(done.status).toBe('failed');
    expect(done.error).toBe(`${message} Send a shorter or more compressed file.`);
    expect(done.error_code).toBe('media_too_large');
  });
});
