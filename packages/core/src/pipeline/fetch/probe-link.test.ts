import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeLink } from './probe-link.ts';
import type { ProbeLinkOptions } from './probe-link.ts';

/** Every request the host saw: path, method and Range header. */
const seen: { path: string; method: string; range: string | undefined }[] = [];
/** Paths whose answer the client closed before the host finished sending it. */
const cutShort = new Set<string>();

function endless(path: string, response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'audio/wav' });
  const block = Buffer.alloc(64 * 1024, 1);
  response.on('close', () => {
    if (!response.writableFinished) cutShort.add(path);
  });
  const pump = (): void => {
    while (!response.destroyed && response.write(block));
    if (!response.destroyed) response.once('drain', pump);
  };
  pump();
}

/** A user's file host; each path behaves like a kind of host the probe meets. */
const routes: Record<string, (request: http.IncomingMessage, response: http.ServerResponse) => void> = {
  '/alive': (_q, s) => void s.writeHead(200, { 'content-length': 1000 }).end(Buffer.alloc(1000)),
  '/head-405': (q, s) =>
    q.method === 'HEAD' ? void s.writeHead(405).end() : void s.writeHead(206, { 'content-range': 'bytes 0-0/1000' }).end('R'),
  '/head-403': (q, s) =>
    q.method === 'HEAD' ? void s.writeHead(403).end() : void s.writeHead(206, { 'content-range': 'bytes 0-0/1000' }).end('R'),
  '/head-reset': (q, s) => (q.method === 'HEAD' ? void s.socket?.destroy() : void s.writeHead(206).end('R')),
  '/range-ignored': (q, s) => (q.method === 'HEAD' ? void s.writeHead(405).end() : endless('/range-ignored', s)),
  '/range-416': (q, s) => (q.method === 'HEAD' ? void s.writeHead(405).end() : void s.writeHead(416).end()),
  '/gone': (_q, s) => void s.writeHead(404).end('gone'),
  '/unavailable': (_q, s) => void s.writeHead(503).end(),
  '/hang': () => undefined, // never answers
  '/moved': (_q, s) => void s.writeHead(302, { location: '/alive' }).end(),
  '/moved-to-gone': (_q, s) => void s.writeHead(301, { location: '/gone' }).end(),
  '/loop': (_q, s) => void s.writeHead(302, { location: '/loop' }).end(),
};

let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    seen.push({ path, method: request.method ?? '', range: request.headers.range });
    (routes[path] ?? ((_q, s) => void s.writeHead(404).end()))(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const local: ProbeLinkOptions = { timeoutMs: 5000, allowPrivateNetwork: true };
const requestsTo = (path: string) => seen.filter((request) => request.path === path).map((r) => `${r.method} ${r.range ?? '-'}`);

describe('probeLink', () => {
  it('should judge a link alive by a HEAD answer 200, with no GET', async () => {
    expect(await probeLink(`${base}/alive`, local)).toBe(true);
    expect(requestsTo('/alive')).toEqual(['HEAD -']);
  });

  it.each(['/head-405', '/head-403', '/head-reset'])(
    'should judge a host that refuses HEAD (%s) alive by a one-byte ranged GET',
    async (path) => {
      expect(await probeLink(`${base}${path}`, local)).toBe(true);
      expect(requestsTo(path)).toEqual(['HEAD -', 'GET bytes=0-0']);
    },
  );

  it('should take a 200 to the ranged GET (Range ignored) as alive and drop the body at once', async () => {
    expect(await probeLink(`${base}/range-ignored`, local)).toBe(true);
    await expect.poll(() => cutShort.has('/range-ignored')).toBe(true); // the endless body was not read to its end
  });

  it.each([
    ['/gone', 'a deleted file (404)'],
    ['/unavailable', 'a 503, not retried'],
    ['/range-416', 'a 416 to the one-byte range'],
    ['/moved-to-gone', 'a redirect to a 404'],
    ['/loop', 'a redirect loop'],
  ])('should judge %s not alive: %s', async (path) => {
    expect(await probeLink(`${base}${path}`, local)).toBe(false);
    expect(requestsTo(path).filter((request) => request.startsWith('HEAD'))).not.toHaveLength(0);
  });

  it('should ask twice at most, one HEAD then one ranged GET, for a link that refuses', async () => {
    await probeLink(`${base}/unavailable?twice`, local);
    expect(requestsTo('/unavailable').slice(-2)).toEqual(['HEAD -', 'GET bytes=0-0']);
  });

  it('should follow a redirect to a live file', async () => {
    const before = requestsTo('/alive').length;
    expect(await probeLink(`${base}/moved`, local)).toBe(true);
    expect(requestsTo('/alive').length).toBe(before + 1);
  });

  it('should judge a host that never answers not alive once the budget is spent', async () => {
    expect(await probeLink(`${base}/hang`, { ...local, timeoutMs: 300 })).toBe(false);
  });

  it('should refuse a private address without the private-network permission, sending nothing (SSRF rules of downloads)', async () => {
    const before = seen.length;
    expect(await probeLink(`${base}/alive`, { timeoutMs: 5000, allowPrivateNetwork: false })).toBe(false);
    expect(seen.length).toBe(before);
  });

  it('should judge an invalid link not alive', async () => {
    expect(await probeLink('ftp://example.com/a.mp3', local)).toBe(false);
  });

  it("should reject with the caller's reason when the caller cancels", async () => {
    const controller = new AbortController();
    const probe = probeLink(`${base}/hang`, { ...local, timeoutMs: 60_000, signal: controller.signal });
    await expect.poll(() => requestsTo('/hang').length).toBeGreaterThan(1); // the first test's HEAD, and this one's
    controller.abort(new Error('canceled by the test'));
    await expect(probe).rejects.toThrow('canceled by the test');
  });
});
