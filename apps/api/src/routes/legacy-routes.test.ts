import { setTimeout as sleep } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, predictions, revokeApiKey } from '@transcribe/core';
import Replicate031 from 'replicate-0.31';
import Replicate14 from 'replicate-1.4';
import { serveFiles, type FileServer } from '../test-support/serve-files.ts';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

const CLIP = 'librispeech-test-clean/1089-134686-0001.wav';

describe('the earlier interface variant (spec 9)', () => {
  let t: TestService;
  let audio: FileServer;
  let link: string;
  /** Spec 9 writes the header name as Authentication. */
  const legacyAuth = () => ({ authentication: `Bearer ${t.key}` });

  beforeAll(async () => {
    t = await startTestService('pglite');
    audio = await serveFiles(AUDIO_DIR);
    link = `${audio.url}/${CLIP}`;
  });

  afterAll(async () => {
    await audio?.close();
    await t?.stop();
  });

  async function post(path: string, body: unknown): Promise<Response> {
    return fetch(`${t.url}/v1${path}`, {
      method: 'POST',
      headers: { ...legacyAuth(), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  async function pollLegacy(id: string): Promise<{ status: string; output: unknown; error: unknown }> {
    for (let tries = 0; tries < 600; tries++) {
      const response = await fetch(`${t.url}/v1/predictions/${id}`, { headers: legacyAuth() });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { status: string; output: unknown; error: unknown };
      if (['succeeded', 'failed', 'canceled'].includes(body.status)) return body;
      await sleep(250);
    }
    throw new Error(`prediction ${id} did not finish`);
  }

  async function createLegacy(input: Record<string, unknown>, auth = legacyAuth()): Promise<{ id: string; input: unknown }> {
    const response = await fetch(`${t.url}/v1/predictions`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ version: 'transcribe', input }),
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; input: unknown };
  }

  it('should answer txt_file_url with a signed URL that its clients fetch without the key, and echo the input as sent', async () => {
    const created = await createLegacy({ url: link, output_format: 'txt_file_url' });
    expect(created.input).toEqual({ url: link, output_format: 'txt_file_url' });
    const done = await pollLegacy(created.id);
    expect(done.status, String(done.error)).toBe('succeeded');
    const url = String(done.output);
    const base = `${t.service.ctx.config.apiBaseUrl}/predictions/${created.id}/output.txt`;
    expect(url.startsWith(`${base}?expires=`)).toBe(true);
    expect(url).toMatch(/\?expires=\d{10}&signature=[A-Za-z0-9_-]{43}$/);
    const expires = Number(new URL(url).searchParams.get('expires'));
    expect(expires * 1000 - Date.now()).toBeGreaterThan(6.9 * 24 * 3600_000); // 7 days from completion
    const text = await fetch(url);
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    const body = await text.text();
    expect(body).toMatch(/^[a-z' ]+/);
    expect(body).not.toMatch(/\[\d\d:/);
    // The same path without the signature needs the key, as before.
    expect((await fetch(base)).status).toBe(401);
    expect(await (await fetch(base, { headers: { authorization: `Bearer ${t.key}` } })).text()).toBe(body);
    // An altered link gets 403, whatever was changed; a made-up id says the same.
    const altered = [
      url.replace(/signature=./, (head) => `${head.slice(0, -1)}${head.endsWith('A') ? 'B' : 'A'}`),
      url.replace(/expires=\d+/, `expires=${expires + 3600}`),
      url.replace(created.id, 'p0000000000000000000000000'),
      url.replace(/&signature=.*/, '&signature='),
    ];
    for (const wrong of altered) {
      const refused = await fetch(wrong);
      expect(refused.status, wrong).toBe(403);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/not valid/);
    }
    // The GET shows the input the legacy client sent, not its translation.
    const got = (await (await fetch(`${t.url}/v1/predictions/${created.id}`, { headers: legacyAuth() })).json()) as { input: unknown };
    expect(got.input).toEqual({ url: link, output_format: 'txt_file_url' });
  });

  it('should refuse a signed text link once it expired, and once its key was revoked', async () => {
    const created = await createLegacy({ url: link, output_format: 'txt_file_url' });
    expect((await pollLegacy(created.id)).status).toBe('succeeded');
    const db = t.service.ctx.database.db;
    // Completed 8 days ago: the link's expiry (7 days after completion) has passed.
    await db
      .update(predictions)
      .set({ completedAt: new Date(Date.now() - 8 * 24 * 3600_000) })
      .where(eq(predictions.id, created.id));
    const expired = await fetch(String((await pollLegacy(created.id)).output));
    expect(expired.status).toBe(403);
    expect(((await expired.json()) as { detail: string }).detail).toMatch(
      /^This text link expired at \d{4}-\d\d-\d\dT.*Send your API key with this URL \(Authorization: Bearer <key>\) to read the text\.$/,
    );

    const other = await createApiKey(db, 'legacy-revoked');
    const auth = { authentication: `Bearer ${other.secret}` };
    const mine = await createLegacy({ url: link, output_format: 'txt_file_url' }, auth);
    let output = '';
    for (let tries = 0; tries < 600 && !output; tries++) {
      const body = (await (await fetch(`${t.url}/v1/predictions/${mine.id}`, { headers: auth })).json()) as {
        status: string;
        output: string | null;
      };
      if (body.status === 'succeeded') output = String(body.output);
      else await sleep(250);
    }
    expect((await fetch(output)).status).toBe(200);
    await revokeApiKey(db, other.id, { cache: t.service.ctx.apiKeyCache });
    const revoked = await fetch(output);
    expect(revoked.status).toBe(403);
    expect(((await revoked.json()) as { detail: string }).detail).toBe(
      'The API key that made this prediction was revoked, so its text links no longer work.',
    );
  });

  it('should echo only what the legacy client sent: url alone when output_format was left out', async () => {
    const created = await createLegacy({ url: link, language: 'de', speakers: 3 });
    expect(created.input).toEqual({ url: link });
    expect(created).not.toHaveProperty('input.audio');
  });

  it('should give plain text (no time labels) by default through the npm 0.31 client run() with base {url}/v1', async () => {
    const client = new Replicate031({ auth: t.key, baseUrl: `${t.url}/v1` });
    const output = await client.run('service/transcribe', { input: { url: link } });
    expect(typeof output).toBe('string');
    expect(output).toMatch(/^[a-z]/);
    expect(output).not.toMatch(/\[\d\d:|SPEAKER/);
  });

  it('should give the JSON transcript as a string for json_verbose through the npm 1.4 client by version', async () => {
    const client = new Replicate14({ auth: t.key, baseUrl: `${t.url}/v1` });
    const created = await client.predictions.create({ version: 'transcribe', input: { url: link, output_format: 'json_verbose' } });
    const done = await client.wait(created, { interval: 250 });
    expect(done.status).toBe('succeeded');
    expect(typeof done.output).toBe('string');
    const parsed = JSON.parse(String(done.output)) as { source: { format: string }; segments: { text: string }[] };
    expect(parsed.source.format).toBe('wav');
    expect(parsed.segments.length).toBeGreaterThan(0);
  });

  it.each([
    ['a missing url', '/models/service/transcribe/predictions', { input: {} }, /url is required/],
    [
      'audio instead of url',
      '/models/service/transcribe/predictions',
      { input: { audio: 'https://example.com/a.wav' } },
      /earlier interface .* takes input\.url/,
    ],
    [
      'an output_format of the current variant',
      '/models/service/transcribe/predictions',
      { input: { url: 'https://example.com/a.wav', output_format: 'srt' } },
      /output_format/,
    ],
    ['a missing version', '/predictions', { input: { url: 'https://example.com/a.wav' } }, /version must be "transcribe"/],
    [
      'another version',
      '/predictions',
      { version: 'whisper', input: { url: 'https://example.com/a.wav' } },
      /version must be "transcribe"/,
    ],
  ])('should refuse %s with 422 and a detail', async (_name, path, body, detail) => {
    const response = await post(path, body);
    expect(response.status).toBe(422);
    expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
  });

  it('should answer 401 without a key and 404 for an unknown prediction', async () => {
    expect((await fetch(`${t.url}/v1/predictions/abc`)).status).toBe(401);
    const missing = await fetch(`${t.url}/v1/predictions/${'a'.repeat(26)}`, { headers: legacyAuth() });
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { detail: string }).detail).toMatch(/No prediction/);
  });
});
