import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    return fetch(`${t.url}/v1${path}`, { method: 'POST', headers: { ...legacyAuth(), 'content-type': 'application/json' }, body: JSON.stringify(body) });
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

  it('should answer txt_file_url with an absolute URL of the text, served to the same key only', async () => {
    const response = await post('/predictions', { version: 'service/transcribe', input: { url: link, output_format: 'txt_file_url' } });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const done = await pollLegacy(id);
    expect(done.status, String(done.error)).toBe('succeeded');
    expect(done.output).toBe(`${t.service.ctx.config.apiBaseUrl}/predictions/${id}/output.txt`);
    const text = await fetch(String(done.output), { headers: { authorization: `Bearer ${t.key}` } });
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    const body = await text.text();
    expect(body).toMatch(/^[a-z' ]+/);
    expect(body).not.toMatch(/\[\d\d:/);
    expect((await fetch(String(done.output))).status).toBe(401);
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
    ['audio instead of url', '/models/service/transcribe/predictions', { input: { audio: 'https://example.com/a.wav' } }, /earlier interface .* takes input\.url/],
    ['an output_format of the current variant', '/models/service/transcribe/predictions', { input: { url: 'https://example.com/a.wav', output_format: 'srt' } }, /output_format/],
    ['a missing version', '/predictions', { input: { url: 'https://example.com/a.wav' } }, /version must be "transcribe"/],
    ['another version', '/predictions', { version: 'whisper', input: { url: 'https://example.com/a.wav' } }, /version must be "transcribe"/],
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
