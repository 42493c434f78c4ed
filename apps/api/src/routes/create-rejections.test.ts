import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, predictions } from '@transcribe/core';
import { AUDIO_DIR } from '../test-support/shared-paths.ts';
import { startTestService, type TestService } from '../test-support/start-test-service.ts';

interface RejectedForm {
  name: string;
  /** Path under `{replicateBase}/v1`. */
  path: string;
  headers?: Record<string, string>;
  body: () => string | FormData | Uint8Array;
  detail: RegExp;
}

const MODEL = '/models/service/transcribe/predictions';

function json(value: unknown): () => string {
  return () => JSON.stringify(value);
}

function form(entries: [string, string | Blob, string?][]): () => FormData {
  return () => {
    const data = new FormData();
    for (const [name, value, filename] of entries) {
      if (typeof value === 'string') data.append(name, value);
      else data.append(name, value, filename);
    }
    return data;
  };
}

/** Every create request the HTTP layer must refuse with 422 (spec 4.1, 4.2, 4.5; docs/api.md). */
function rejectedForms(link: string, otherKeysFileUrl: () => string, missingFileUrl: () => string): RejectedForm[] {
  const wav = new Blob([Buffer.alloc(2048)], { type: 'audio/wav' });
  const octet = { 'content-type': 'application/octet-stream', 'x-service-body-field': 'input.audio' };
  return [
    { name: 'a JSON body without input', path: MODEL, body: json({}), detail: /needs an "input" object/ },
    { name: 'a JSON input that is a string', path: MODEL, body: json({ input: 'x' }), detail: /needs an "input" object/ },
    { name: 'a JSON input without audio', path: MODEL, body: json({ input: {} }), detail: /audio is required/ },
    { name: 'an ftp: audio link', path: MODEL, body: json({ input: { audio: 'ftp://example.com/a.wav' } }), detail: /audio must be/ },
    { name: 'speakers 0', path: MODEL, body: json({ input: { audio: link, speakers: 0 } }), detail: /speakers/ },
    { name: 'a non-default cut_start', path: MODEL, body: json({ input: { audio: link, cut_start: 5 } }), detail: /cut_start/ },
    {
      name: 'an unknown post_process type',
      path: MODEL,
      body: json({ input: { audio: link, post_process: ['bogus'] } }),
      detail: /post_process/,
    },
    {
      name: 'a webhook that is not a URL',
      path: MODEL,
      body: json({ input: { audio: link }, webhook: 'not a url' }),
      detail: /webhook must be an https:\/\//,
    },
    {
      name: 'a webhook of another scheme',
      path: '/predictions',
      body: json({ version: 'service/transcribe', input: { audio: link }, webhook: 'ftp://example.com/hook' }),
      detail: /webhook must be/,
    },
    {
      name: 'a webhook that is a number',
      path: '/predictions',
      body: json({ version: 'service/transcribe', input: { audio: link }, webhook: 42 }),
      detail: /webhook must be/,
    },
    {
      name: 'webhook_events_filter as a string',
      path: '/predictions',
      body: json({
        version: 'service/transcribe',
        input: { audio: link },
        webhook: 'https://example.com/h',
        webhook_events_filter: 'completed',
      }),
      detail: /webhook_events_filter must be a list/,
    },
    {
      name: 'an unknown webhook event',
      path: '/predictions',
      body: json({ version: 'service/transcribe', input: { audio: link }, webhook_events_filter: ['start', 'finished'] }),
      detail: /one of: start, output, logs, completed/,
    },
    {
      name: 'a nested list with a number',
      path: '/predictions',
      body: json({ version: 'service/transcribe', input: { audio: link }, webhook_events_filter: [['start'], [1]] }),
      detail: /webhook_events_filter/,
    },
    {
      name: 'a missing version',
      path: '/predictions',
      body: json({ input: { audio: link } }),
      detail: /version must be "service\/transcribe"/,
    },
    {
      name: 'another version',
      path: '/predictions',
      body: json({ version: 'service/other', input: { audio: link } }),
      detail: /version must be/,
    },
    {
      name: 'a bad output transformer header',
      path: MODEL,
      headers: { 'x-service-output-transformers': 'markdown' },
      body: json({ input: { audio: link } }),
      detail: /X-Service-Output-Transformers/,
    },
    {
      name: 'a file URL of another key',
      path: MODEL,
      body: () => JSON.stringify({ input: { audio: otherKeysFileUrl() } }),
      detail: /does not exist for this API key or has expired/,
    },
    {
      name: 'a file URL of no file',
      path: MODEL,
      body: () => JSON.stringify({ input: { audio: missingFileUrl() } }),
      detail: /does not exist for this API key/,
    },
    {
      name: 'a multipart form without file or link',
      path: MODEL,
      body: form([['input.output_format', 'text']]),
      detail: /audio is required/,
    },
    {
      name: 'a multipart file and an input.audio link',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ['input.audio', link],
      ]),
      detail: /given twice/,
    },
    {
      name: 'a multipart speakers that is not a number',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ['input.speakers', 'two'],
      ]),
      detail: /speakers/,
    },
    {
      name: 'a multipart parameter given twice',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ['input.language', 'en'],
        ['input.language', 'de'],
      ]),
      detail: /more than once/,
    },
    {
      name: 'a multipart post_process that is broken JSON',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ['input.post_process', '["summary"'],
      ]),
      detail: /not a valid JSON list/,
    },
    {
      name: 'a multipart multilingual that is not a boolean',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ['input.multilingual', 'yes'],
      ]),
      detail: /multilingual/,
    },
    {
      name: 'a multipart link with a non-default cut_duration',
      path: MODEL,
      body: form([
        ['input.audio', link],
        ['input.cut_duration', '10'],
      ]),
      detail: /cut_duration/,
    },
    {
      name: 'two multipart files',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ['input.audio', wav, 'b.wav'],
      ]),
      detail: /more than one part named input.audio/,
    },
    {
      name: 'a multipart text part over 64 KiB',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ['input.prompt', 'x'.repeat(65 * 1024)],
      ]),
      detail: /longer than 64 KiB/,
    },
    {
      name: 'a multipart form of 65 parts',
      path: MODEL,
      body: form([
        ['input.audio', wav, 'a.wav'],
        ...Array.from({ length: 64 }, (_, index) => [`input.extra${index}`, 'x'] as [string, string]),
      ]),
      detail: /too many parts \(at most 64\)/,
    },
    { name: 'an empty multipart file', path: MODEL, body: form([['input.audio', new Blob([]), 'empty.wav']]), detail: /empty/ },
    {
      name: 'a multipart body without boundary',
      path: MODEL,
      headers: { 'content-type': 'multipart/form-data' },
      body: () => 'x',
      detail: /multipart\/form-data body could not be read/,
    },
    {
      name: 'a multipart body cut short',
      path: MODEL,
      headers: { 'content-type': 'multipart/form-data; boundary=zz' },
      body: () => '--zz\r\nContent-Disposition: form-data; name="input.audio"; filename="a.wav"\r\n\r\nabc',
      detail: /could not be read/,
    },
    {
      name: 'an octet-stream body without X-Service-Body-Field',
      path: MODEL,
      headers: { 'content-type': 'application/octet-stream' },
      body: () => new Uint8Array(16),
      detail: /needs the header "X-Service-Body-Field: input.audio"/,
    },
    {
      name: 'an octet-stream body for another parameter',
      path: MODEL,
      headers: { ...octet, 'x-service-body-field': 'input.prompt' },
      body: () => new Uint8Array(16),
      detail: /X-Service-Body-Field must be input.audio/,
    },
    {
      name: 'an octet-stream body with a bad query parameter',
      path: `${MODEL}?input.speakers=0`,
      headers: octet,
      body: () => new Uint8Array(16),
      detail: /speakers/,
    },
    {
      name: 'an octet-stream body and an audio query parameter',
      path: `${MODEL}?input.audio=${encodeURIComponent(link)}`,
      headers: octet,
      body: () => new Uint8Array(16),
      detail: /comes from the body/,
    },
    { name: 'an empty octet-stream body', path: MODEL, headers: octet, body: () => new Uint8Array(0), detail: /body is empty/ },
  ];
}

describe('create requests refused at the HTTP level', () => {
  let t: TestService;
  let linkHits = 0;
  let linkServer: Server;
  let link: string;
  let otherKeysFileUrl = '';

  beforeAll(async () => {
    t = await startTestService('pglite');
    linkServer = createServer((_req, res) => {
      linkHits += 1;
      res.writeHead(200, { 'content-type': 'audio/wav' });
      createReadStream(join(AUDIO_DIR, 'jfk.wav')).pipe(res);
    });
    await new Promise<void>((done) => linkServer.listen(0, '127.0.0.1', done));
    link = `http://127.0.0.1:${(linkServer.address() as { port: number }).port}/jfk.wav`;
    const other = await createApiKey(t.service.ctx.database.db, 'other');
    const upload = new FormData();
    upload.append('content', new Blob([Buffer.alloc(100)]), 'a.wav');
    const response = await fetch(`${t.replicateBase}/v1/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.secret}` },
      body: upload,
    });
    otherKeysFileUrl = ((await response.json()) as { urls: { get: string } }).urls.get;
  });

  afterAll(async () => {
    await new Promise((done) => linkServer?.close(done));
    await t?.stop();
  });

  const uploads = () => readdir(join(t.dataDir, 'uploads')).catch(() => []);

  it.each(
    rejectedForms(
      'http://127.0.0.1:1/placeholder',
      () => '',
      () => '',
    ).map((form) => [form.name, form] as const),
  )('should refuse %s with 422, a detail, no prediction and no download', async (name) => {
    const form = rejectedForms(
      link,
      () => otherKeysFileUrl,
      () => `${t.service.ctx.config.apiBaseUrl}/files/${'a'.repeat(26)}`,
    ).find((candidate) => candidate.name === name);
    if (!form) throw new Error(`no case ${name}`);
    const countBefore = await t.service.ctx.database.db.$count(predictions);
    const uploadsBefore = await uploads();
    const body = form.body();
    const headers: Record<string, string> = { authorization: `Bearer ${t.key}`, ...form.headers };
    if (typeof body === 'string' && !headers['content-type']) headers['content-type'] = 'application/json';
    const response = await fetch(`${t.replicateBase}/v1${form.path}`, { method: 'POST', headers, body });
    const problem = (await response.json()) as { detail: string; status: number };
    expect(response.status, problem.detail).toBe(422);
    expect(response.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(problem.status).toBe(422);
    expect(problem.detail).toMatch(form.detail);
    expect(await t.service.ctx.database.db.$count(predictions)).toBe(countBefore);
    expect(await uploads()).toEqual(uploadsBefore);
    expect(linkHits).toBe(0);
  });

  it.each([
    ['text/plain on the model endpoint', MODEL, 'text/plain', /Content-Type text\/plain is not accepted/],
    ['multipart on the generic endpoint', '/predictions', 'multipart/form-data; boundary=x', /to upload a file, use POST/],
    ['octet-stream on the generic endpoint', '/predictions', 'application/octet-stream', /to upload a file/],
  ])('should refuse %s with 415 and a detail', async (_name, path, type, detail) => {
    const response = await fetch(`${t.replicateBase}/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.key}`, 'content-type': type },
      body: '{}',
    });
    expect(response.status).toBe(415);
    expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
  });

  it('should never answer 500 nor anything but a JSON object to random bodies and content types', async () => {
    const contentType = fc.oneof(
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'multipart/form-data',
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'application/x-www-form-urlencoded',
        '',
      ),
      fc.stringMatching(/^[a-z]{1,10}\/[a-z0-9.+-]{1,12}$/),
    );
    const value = fc.oneof(
      fc.jsonValue(),
      fc.record({ input: fc.jsonValue() }, { requiredKeys: [] }),
      fc.record(
        {
          version: fc.oneof(fc.constant('service/transcribe'), fc.string()),
          input: fc.dictionary(
            fc.constantFrom('audio', 'speakers', 'post_process', 'cut_start', 'language', '__proto__', 'output_format'),
            fc.jsonValue(),
          ),
          webhook: fc.jsonValue(),
          webhook_events_filter: fc.jsonValue(),
        },
        { requiredKeys: [] },
      ),
    );
    const before = await t.service.ctx.database.db.$count(predictions);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(`/v1${MODEL}`, MODEL, '/v1/predictions', '/predictions'),
        contentType,
        value,
        async (path, type, body) => {
          const headers: Record<string, string> = { authorization: `Bearer ${t.key}` };
          if (type) headers['content-type'] = type;
          const response = await fetch(`${t.replicateBase}${path}`, { method: 'POST', headers, body: JSON.stringify(body) ?? 'null' });
          const text = await response.text();
          expect(response.status, text).toBeLessThan(500);
          expect(response.headers.get('content-type')).toMatch(/json/);
          const parsed = JSON.parse(text) as unknown;
          expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    expect(await t.service.ctx.database.db.$count(predictions)).toBe(before);
  });
});
