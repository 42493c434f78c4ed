import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { predictions } from '@transcribe/core';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

type Problem = { detail: string; status: number };

/** Errors that tell the user what to send instead, through HTTP. */
describe('errors that guide', () => {
  let t: TestService;

  beforeAll(async () => {
    t = await startTestService('pglite', { WORKER_CONCURRENCY: '0' });
  });

  afterAll(async () => {
    await t?.stop();
  });

  const account = (headers: Record<string, string>) => fetch(`${t.replicateBase}/v1/account`, { headers });

  it.each([
    ['no key', {}, 'No API key was sent. Send the header "Authorization: Bearer <key>".'],
    [
      'a bare key',
      { authorization: 'tsk_abcdefghij' },
      'The Authorization header holds a bare key: put "Bearer " before it. Send the header "Authorization: Bearer <key>".',
    ],
    [
      'another scheme',
      { authorization: 'Basic dXNlcjpwYXNz' },
      'The Authorization scheme "Basic" is not accepted: use Bearer (or Token). Send the header "Authorization: Bearer <key>".',
    ],
    [
      'an X-API-Key header',
      { 'x-api-key': 'tsk_abcdefghij' },
      'Keys are not read from the header x-api-key. Send the header "Authorization: Bearer <key>".',
    ],
  ])('should answer 401 with WWW-Authenticate: Bearer and say which header to send for %s', async (_name, headers, detail) => {
    const answer = await account(headers);
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="transcribe"');
    expect(((await answer.json()) as Problem).detail).toBe(detail);
  });

  it('should answer 401 with WWW-Authenticate for a wrong key too', async () => {
    const answer = await account({ authorization: 'Bearer tsk_wrong' });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="transcribe"');
  });

  it.each(['file', 'audio'])('should answer a multipart part named %s with the part to use, keeping nothing', async (part) => {
    const form = new FormData();
    form.append(part, new Blob([new Uint8Array(200_000)], { type: 'audio/wav' }), 'talk.wav');
    const answer = await fetch(`${t.replicateBase}/v1/models/service/transcribe/predictions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}` },
      body: form,
    });
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as Problem).detail).toBe(
      `The form part ${part} is not read here: send the recording as the form part input.audio.`,
    );
    expect(await readdir(join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);
    expect(await t.service.ctx.database.db.$count(predictions)).toBe(0);
  });

  it.each([
    [
      'POST',
      '/v1/models/openai/whisper/predictions',
      'The model openai/whisper is not served here; this service serves service/transcribe.',
    ],
    [
      'GET',
      '/v1/models/vaibhavs10/incredibly-fast-whisper',
      'The model vaibhavs10/incredibly-fast-whisper is not served here; this service serves service/transcribe.',
    ],
    [
      'GET',
      '/v1/models/service/transcribe/predictions',
      'No such endpoint for service/transcribe: create predictions with POST …/models/service/transcribe/predictions.',
    ],
  ])('should answer %s %s with 404 naming the model served', async (method, path, detail) => {
    const answer = await fetch(`${t.replicateBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
      body: method === 'POST' ? '{"input":{}}' : undefined,
    });
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as Problem).detail).toBe(detail);
  });

  it('should send a browser opening the service root to the portal', async () => {
    const answer = await fetch(`${t.url}/`, { redirect: 'manual' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/portal');
  });
});
