import { gzipSync } from 'node:zlib';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from './classify-http-failure.ts';
import { createOutboundFetch } from './create-outbound-fetch.ts';
import { CLOSING_FRAMINGS, startFramedServer } from './test-support/start-framed-server.ts';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let server: http.Server;
let base: string;
let other: http.Server;
let otherBase: string;
const seen: Seen[] = [];

/** Answers by path: redirects of every kind, gzip, 204, an echo of the request. */
function handle(req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): void {
  const url = new URL(req.url ?? '/', 'http://x');
  const to = url.searchParams.get('to');
  const status = Number(url.searchParams.get('status') ?? '302');
  if (url.pathname === '/redirect' && to !== null) return void res.writeHead(status, { location: to }).end('moved');
  if (url.pathname === '/loop') return void res.writeHead(302, { location: '/loop' }).end();
  if (url.pathname === '/gzip') return void res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('unzipped text'));
  if (url.pathname === '/empty') return void res.writeHead(204).end();
  res.writeHead(200, { 'content-type': 'application/json' }).end(
    JSON.stringify({
      method: req.method,
      length: req.headers['content-length'] ?? null,
      type: req.headers['content-type'] ?? null,
      body: body.toString('latin1'),
    }),
  );
}

function listen(into: Seen[]): Promise<[http.Server, string]> {
  const created = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      into.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handle(req, res, body);
    });
  });
  return new Promise((resolve) =>
    created.listen(0, '127.0.0.1', () => resolve([created, `http://127.0.0.1:${(created.address() as AddressInfo).port}`])),
  );
}

beforeAll(async () => {
  [server, base] = await listen(seen);
  [other, otherBase] = await listen(seen);
});

afterAll(async () => {
  for (const each of [server, other]) {
    each.closeAllConnections();
    await new Promise((resolve) => each.close(resolve));
  }
});

const outboundFetch = createOutboundFetch();

describe('createOutboundFetch (fetch over Node http)', () => {
  it('should send a FormData body as multipart with its boundary and a Content-Length', async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new File([Buffer.from('ID3-bytes-of-a-clip')], 'a.mp3', { type: 'audio/mpeg' }));
    const answer = (await (await outboundFetch(`${base}/echo`, { method: 'POST', body: form })).json()) as Record<
      string,
      string | undefined
    >;
    expect(answer.method).toBe('POST');
    expect(answer.type).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(answer.length)).toBe(Buffer.byteLength(answer.body!, 'latin1'));
    expect(answer.body).toContain('name="file"; filename="a.mp3"');
    expect(answer.body).toContain('ID3-bytes-of-a-clip');
  });

  it('should follow redirects, turn a 303 into a GET without body, and keep a 307 a POST with its body', async () => {
    const see = await outboundFetch(`${base}/redirect?status=303&to=/echo`, { method: 'POST', body: 'x=1' });
    expect((await see.json()) as { method: string; body: string }).toMatchObject({ method: 'GET', body: '' });
    const keep = await outboundFetch(`${base}/redirect?status=307&to=/echo`, { method: 'POST', body: 'x=1' });
    expect((await keep.json()) as { method: string; body: string }).toMatchObject({ method: 'POST', body: 'x=1' });
  });

  it('should drop the credentials on a redirect to another origin, and keep them on the same one', async () => {
    const headers = { authorization: 'Bearer secret' };
    seen.length = 0;
    await (await outboundFetch(`${base}/redirect?to=${encodeURIComponent(`${base}/echo`)}`, { headers })).text();
    await (await outboundFetch(`${base}/redirect?to=${encodeURIComponent(`${otherBase}/echo`)}`, { headers })).text();
    expect(seen.map((request) => request.headers.authorization ?? null)).toEqual(['Bearer secret', 'Bearer secret', 'Bearer secret', null]);
  });

  it('should return the redirect itself with redirect: manual, and fail with redirect: error', async () => {
    const manual = await outboundFetch(`${base}/redirect?to=/echo`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location'), await manual.text()]).toEqual([302, '/echo', 'moved']);
    await expect(outboundFetch(`${base}/redirect?to=/echo`, { redirect: 'error' })).rejects.toThrow(TypeError);
  });

  it('should stop a redirect loop after 20 redirects', async () => {
    seen.length = 0;
    const error = await outboundFetch(`${base}/loop`).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error).cause)).toContain('redirect count exceeded');
    expect(seen.length).toBe(21);
  });

  it('should decode a gzip body, answer 204 and HEAD with no body, and pass data: URLs to the platform', async () => {
    expect(await (await outboundFetch(`${base}/gzip`)).text()).toBe('unzipped text');
    const empty = await outboundFetch(`${base}/empty`);
    expect([empty.status, empty.body]).toEqual([204, null]);
    const head = await outboundFetch(`${base}/echo`, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    expect(await (await outboundFetch('data:,hello')).text()).toBe('hello');
  });

  it('should fail as fetch does: a TypeError whose cause has the code, or the abort reason', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const refused = await outboundFetch(`http://127.0.0.1:${port}/`).catch((failure: unknown) => failure);
    expect(refused).toBeInstanceOf(TypeError);
    expect(codeOf(refused)).toBe('ECONNREFUSED');
    const reason = new Error('gave up');
    await expect(outboundFetch(`${base}/echo`, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  for (const framing of CLOSING_FRAMINGS) {
    it(`should read a 2 MiB JSON answer framed as ${framing} through response.json()`, async () => {
      const big = { text: 'w'.repeat(2 * 1024 * 1024) };
      const host = await startFramedServer(framing, () => ({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(big) }));
      try {
        for (let round = 0; round < 3; round += 1) {
          const answer = await outboundFetch(`${host.url}/v1/x`);
          expect(((await answer.json()) as typeof big).text.length).toBe(big.text.length);
        }
      } finally {
        await host.close();
      }
    });
  }
});
