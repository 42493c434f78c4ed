import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import OpenAI, { APIConnectionTimeoutError, RateLimitError, toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@transcribe/core';
import { createLinkPrediction } from '../test-support/fake-engine-service.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const JFK = join(AUDIO_DIR, 'jfk.wav');
const BACKLOG = 20;

/**
 * The synchronous OpenAI-compatible endpoint refuses a recording whose estimated wait for a worker
 * is longer than OPENAI_MAX_QUEUE_WAIT_SECONDS (429, Retry-After, OpenAI's error shape), through the
 * real `openai` SDK. No worker runs here, so the queue only grows; before any job has been timed, a
 * link of unknown length is estimated at 2 s + 0.1 × 60 s = 8 s (core read-engine-timing.ts), so a
 * key with 20 waiting links would wait 160 s on the one slot assumed.
 */
describe('the OpenAI-compatible endpoint when the queue is long', () => {
  let t: TestService;

  beforeAll(async () => {
    t = await startTestService('pglite', {
      RECOGNITION_ENGINE: 'fake',
      ALLOW_FAKE_ENGINE: '1',
      WORKER_CONCURRENCY: '0',
      OPENAI_MAX_QUEUE_WAIT_SECONDS: '158',
    });
    for (let n = 0; n < BACKLOG; n += 1) {
      await createLinkPrediction(t.url, t.key, { input: { audio: `http://127.0.0.1:9/backlog-${n}.wav` } });
    }
    await sleep(1_100); // the queue view is read at most once a second (core createQueueView)
  });

  afterAll(async () => {
    await t?.stop();
  });

  it('should answer 429 with Retry-After in OpenAI shape to the key with the backlog, which the SDK retries after that long', async () => {
    // Every request the SDK sends, with when it went out and the Retry-After its answer carried: the
    // estimate can move between the two answers, so the retry is checked against the first one.
    const sent: { at: number; answeredAt: number; retryAfter: number }[] = [];
    const client = new OpenAI({
      baseURL: `${t.url}/v1`,
      apiKey: t.key,
      maxRetries: 1,
      timeout: 30_000,
      fetch: async (url: string | URL | Request, init?: RequestInit) => {
        const at = performance.now();
        const response = await fetch(url, init);
        // (The SDK also fetches a `data:` URL once to probe its runtime.)
        if (String(url).endsWith('/v1/audio/transcriptions')) {
          sent.push({ at, answeredAt: performance.now(), retryAfter: Number(response.headers.get('retry-after')) });
        }
        return response;
      },
    });
    // A buffered file: the SDK does not retry a streamed body.
    const file = await toFile(await readFile(JFK), 'jfk.wav');
    const refused = await client.audio.transcriptions.create({ file, model: 'whisper-1' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitError);
    const error = refused as RateLimitError;
    expect(error.status).toBe(429);
    expect(error.code).toBe('queue_wait_too_long');
    expect(error.type).toBe('requests');
    expect(error.message).toMatch(/would wait about 3 min for a worker/);
    expect(sent).toHaveLength(2); // the first answer and the SDK's one retry
    for (const { retryAfter } of sent) {
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(3);
    }
    expect(Number(error.headers?.get('retry-after'))).toBe(sent[1]!.retryAfter);
    // The retry went out no sooner than the first answer's Retry-After said.
    expect(sent[1]!.at - sent[0]!.answeredAt).toBeGreaterThanOrEqual(sent[0]!.retryAfter * 1000 - 50);
    const { rows } = await t.service.ctx.database.executeSql(`SELECT count(*)::int AS n FROM predictions`);
    expect(rows).toEqual([{ n: BACKLOG }]); // refused before a prediction was made
  });

  it('should take the same request from another key, whose job goes ahead of the backlog in the fair queue', async () => {
    const other = await createApiKey(t.service.ctx.database.db, 'other');
    const client = new OpenAI({ baseURL: `${t.url}/v1`, apiKey: other.secret, maxRetries: 0, timeout: 5_000 });
    // Accepted: the prediction is made and waited for (no worker here, so the client gives up first).
    const outcome = await client.audio.transcriptions
      .create({ file: createReadStream(JFK), model: 'whisper-1' })
      .catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(APIConnectionTimeoutError);
    const { rows } = await t.service.ctx.database.executeSql(`SELECT count(*)::int AS n FROM predictions WHERE api_key_id = $1`, [
      other.id,
    ]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});
