import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import OpenAI, { BadRequestError, RateLimitError } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, predictions } from '@transcribe/core';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { multipartBody, postStream, watchRss, zeros } from '../test-support/stream-upload.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

/** The limit of spec 8: 300 MiB (the service default). */
const LIMIT = 300 * 1024 * 1024;
/** Memory a streamed upload may add, far below the body size. */
const MAX_RSS_GROWTH = 100 * 1024 * 1024;

/** Limits of the OpenAI-compatible API on a service with no worker and no language model. */
describe('the OpenAI-compatible API: upload limit, rate limit, translation without a language model', () => {
  let t: TestService;

  beforeAll(async () => {
    t = await startTestService('pglite', { WORKER_CONCURRENCY: '0', RATE_LIMIT_READS_PER_MINUTE: '3' });
  });

  afterAll(async () => {
    await t?.stop();
  });

  it.each([['300 MiB + 1 byte', LIMIT + 1]])(
    "should refuse a file of %s with 413 in OpenAI's shape while it streams, memory flat, nothing stored",
    async (_name, bytes) => {
      const rss = watchRss();
      const answer = await postStream(
        `${t.url}/v1/audio/transcriptions`,
        { authorization: `Bearer ${t.key}`, 'content-type': 'multipart/form-data; boundary=xyz' },
        multipartBody('xyz', [['model', 'whisper-1']], 'file', zeros(bytes)),
      );
      const growth = rss.stop();
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({
        error: {
          message: expect.stringMatching(/larger than the 300 MiB limit/),
          type: 'invalid_request_error',
          param: 'file',
          code: 'payload_too_large',
        },
      });
      // the file stopped being written at the limit (lingerUnreadBody reads the rest so the client sees the answer)
      expect(growth).toBeLessThan(MAX_RSS_GROWTH);
      expect(await readdir(join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);
      expect(await t.service.ctx.database.db.$count(predictions)).toBe(0);
    },
  );

  it('should answer translations with a clear 400 when the engine does not translate and no language model is configured', async () => {
    const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: t.key, maxRetries: 0 });
    const error = await client.audio.translations
      .create({ file: createReadStream(join(AUDIO_DIR, 'jfk.wav')), model: 'whisper-1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).message).toMatch(/Translation is not available on this server.*no language model is configured/);
    expect(await readdir(join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);
    expect(await t.service.ctx.database.db.$count(predictions)).toBe(0);
  });

  it("should answer 429 with Retry-After as the SDK's RateLimitError past the key's limit", async () => {
    const key = await createApiKey(t.service.ctx.database.db, 'rate');
    const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: key.secret, maxRetries: 0 });
    for (let i = 0; i < 3; i += 1) await client.models.list();
    const error = await client.models.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(Number((error as RateLimitError).headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((error as RateLimitError).code).toBe('rate_limit_exceeded');
  });
});
