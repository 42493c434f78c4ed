import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../platform/errors/app-error.ts';
import type { AppErrorCode } from '../../platform/errors/app-error.ts';
import { downloadLink } from './download-link.ts';
import type { DownloadLinkOptions } from './download-link.ts';

const JFK = '/work/shared/audio/jfk.wav';
const MB = 1024 * 1024;
const hits = new Map<string, number>();

/** Counts requests per path+query so each test can use its own counter (?t=name). */
function hit(request: http.IncomingMessage): number {
  const count = (hits.get(request.url ?? '') ?? 0) + 1;
  hits.set(request.url ?? '', count);
  return count;
}

function sendFile(response: http.ServerResponse, chunked = false): void {
  const headers: http.OutgoingHttpHeaders = { 'content-type': 'audio/wav' };
  stat(JFK).then(
    ({ size }) => {
      if (!chunked) headers['content-length'] = size;
      response.writeHead(200, headers);
      createReadStream(JFK).pipe(response);
    },
    (error: unknown) => response.destroy(error as Error),
  );
}

function endless(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'application/octet-stream' });
  const block = Buffer.alloc(64 * 1024, 1);
  const pump = (): void => {
    while (!response.destroyed && response.write(block));
    if (!response.destroyed) response.once('drain', pump);
  };
  pump();
}

const routes: Record<string, (request: http.IncomingMessage, response: http.ServerResponse) => void> = {
  '/jfk.wav': (_q, s) => sendFile(s),
  '/chunked.wav': (_q, s) => sendFile(s, true),
  '/missing': (_q, s) => s.writeHead(404).end('nope'),
  '/forbidden': (_q, s) => s.writeHead(403).end(),
  '/flaky-500': (q, s) => (hit(q) === 1 ? s.writeHead(500).end() : sendFile(s)),
  '/always-503': (q, s) => (hit(q), s.writeHead(503).end()),
  '/rate-limited-once': (q, s) => (hit(q) === 1 ? s.writeHead(429, { 'retry-after': '1' }).end() : sendFile(s)),
  '/rate-limited-long': (q, s) => (hit(q), s.writeHead(429, { 'retry-after': '3600' }).end()),
  '/reset': (q, s) => (hit(q), s.socket?.destroy()),
  '/reset-once': (q, s) => (hit(q) === 1 ? s.socket?.destroy() : sendFile(s)),
  '/cut-short': (q, s) => (
    hit(q),
    s.writeHead(200, { 'content-length': 100_000 }),
    s.write(Buffer.alloc(1000)),
    setTimeout(() => s.socket?.destroy(), 20)
  ),
  '/r1': (_q, s) => s.writeHead(301, { location: '/r2' }).end(),
  '/r2': (_q, s) => s.writeHead(302, { location: 'jfk.wav' }).end(),
  '/loop-a': (_q, s) => s.writeHead(302, { location: '/loop-b' }).end(),
  '/loop-b': (_q, s) => s.writeHead(302, { location: '/loop-a' }).end(),
  '/to-private': (_q, s) => s.writeHead(302, { location: 'http://10.1.2.3/secret.wav' }).end(),
  '/to-metadata': (_q, s) => s.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
  '/to-ftp': (_q, s) => s.writeHead(302, { location: 'ftp://example.com/a.wav' }).end(),
  '/slow': () => undefined,
  '/huge': (_q, s) => (s.writeHead(200, { 'content-length': String(10 ** 12) }), s.flushHeaders()),
  '/endless': (_q, s) => endless(s),
};

let server: http.Server;
let base: string;
let port: number;
let dir: string;
let fileNumber = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'download-link-'));
  server = http.createServer((request, response) => {
    const route = routes[new URL(request.url ?? '/', 'http://x').pathname];
    if (route) route(request, response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

function dest(): string {
  fileNumber += 1;
  return join(dir, `download-${fileNumber}.bin`);
}

const local: DownloadLinkOptions = { maxBytes: 50 * MB, timeoutMs: 15_000, allowPrivateNetwork: true };

async function failure(promise: Promise<unknown>): Promise<Error & { code?: AppErrorCode }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: AppErrorCode };
  }
  throw new Error('expected a failure, got success');
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

describe('downloadLink', () => {
  describe('when the link serves the file', () => {
    it('should save it byte-identical and report size and content type', async () => {
      const path = dest();
      const result = await downloadLink(`${base}/jfk.wav`, path, local);
      const original = await readFile(JFK);
      expect(result).toEqual({ bytes: original.length, contentType: 'audio/wav' });
      expect((await readFile(path)).equals(original)).toBe(true);
    });

    it('should save a chunked body without Content-Length', async () => {
      const path = dest();
      const result = await downloadLink(`${base}/chunked.wav`, path, local);
      expect(result.bytes).toBe((await stat(JFK)).size);
    });
  });

  describe('when the link answers with an error status', () => {
    it('should throw upstream_refused naming the status, without retrying a 404', async () => {
      const path = dest();
      const error = await failure(downloadLink(`${base}/missing`, path, local));
      expect(isAppError(error, 'upstream_refused')).toBe(true);
      expect(error.message).toBe('The link answered HTTP 404 Not Found.');
      expect(await exists(path)).toBe(false);
    });

    it('should retry a 500 and then succeed', async () => {
      const result = await downloadLink(`${base}/flaky-500?t=a`, dest(), local);
      expect(result.bytes).toBe((await stat(JFK)).size);
      expect(hits.get('/flaky-500?t=a')).toBe(2);
    });

    it('should give up on a lasting 503 after 3 attempts', async () => {
      const error = await failure(downloadLink(`${base}/always-503?t=b`, dest(), local));
      expect(isAppError(error, 'upstream_refused')).toBe(true);
      expect(error.message).toContain('503');
      expect(hits.get('/always-503?t=b')).toBe(3);
    });

    it('should wait for Retry-After on a 429 and then succeed', async () => {
      const started = Date.now();
      const result = await downloadLink(`${base}/rate-limited-once?t=c`, dest(), local);
      expect(result.bytes).toBeGreaterThan(0);
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    });

    it('should not wait for a Retry-After beyond the cap', async () => {
      const started = Date.now();
      const error = await failure(downloadLink(`${base}/rate-limited-long?t=d`, dest(), local));
      expect(error.message).toContain('429');
      expect(hits.get('/rate-limited-long?t=d')).toBe(1);
      expect(Date.now() - started).toBeLessThan(20_000); // Retry-After asked for an hour
    });
  });

  describe('when following redirects', () => {
    it('should follow a 301 then a relative 302 to the file', async () => {
      const result = await downloadLink(`${base}/r1`, dest(), local);
      expect(result.contentType).toBe('audio/wav');
    });

    it('should stop a redirect loop with upstream_refused', async () => {
      const error = await failure(downloadLink(`${base}/loop-a`, dest(), local));
      expect(isAppError(error, 'upstream_refused')).toBe(true);
      expect(error.message).toContain('more than 5 times');
    });

    it('should honour maxRedirects', async () => {
      const error = await failure(downloadLink(`${base}/r1`, dest(), { ...local, maxRedirects: 1 }));
      expect(error.message).toContain('more than 1 times');
    });

    it('should refuse a redirect to a non-http scheme', async () => {
      const error = await failure(downloadLink(`${base}/to-ftp`, dest(), local));
      expect(isAppError(error, 'upstream_refused')).toBe(true);
      expect(error.message).toContain('ftp:');
    });

    it.each(['/to-private', '/to-metadata'])('should refuse the redirect of %s to a private address', async (route) => {
      const options = { ...local, allowPrivateNetwork: false, allowedAddresses: ['127.0.0.1'] };
      const error = await failure(downloadLink(`${base}${route}`, dest(), options));
      expect(isAppError(error, 'address_not_allowed')).toBe(true);
    });

    it('should fetch from an explicitly allowed private address', async () => {
      const options = { ...local, allowPrivateNetwork: false, allowedAddresses: ['127.0.0.0/8'] };
      const result = await downloadLink(`${base}/jfk.wav`, dest(), options);
      expect(result.bytes).toBe((await stat(JFK)).size);
    });
  });

  describe('when the size is over the limit', () => {
    it('should refuse a huge Content-Length before reading the body', async () => {
      const started = Date.now();
      const error = await failure(downloadLink(`${base}/huge`, dest(), local));
      expect(isAppError(error, 'media_too_large')).toBe(true);
      expect(error.message).toContain('50 MiB');
      expect(Date.now() - started).toBeLessThan(20_000); // the body never comes: reading it would hang
    });

    it('should abort a chunked body that grows past maxBytes and remove the partial file', async () => {
      const path = dest();
      const error = await failure(downloadLink(`${base}/endless`, path, { ...local, maxBytes: 100_000 }));
      expect(isAppError(error, 'media_too_large')).toBe(true);
      expect(await exists(path)).toBe(false);
    });

    it('should refuse a known file larger than maxBytes', async () => {
      const error = await failure(downloadLink(`${base}/jfk.wav`, dest(), { ...local, maxBytes: 1000 }));
      expect(isAppError(error, 'media_too_large')).toBe(true);
    });
  });

  describe('when the network fails', () => {
    it('should time out a server that never answers with upstream_unreachable', async () => {
      const started = Date.now();
      const error = await failure(downloadLink(`${base}/slow`, dest(), { ...local, timeoutMs: 400 }));
      expect(isAppError(error, 'upstream_unreachable')).toBe(true);
      expect(error.message).toContain('0.4 s');
      expect(Date.now() - started).toBeLessThan(20_000); // the server never answers
    });

    it('should retry a reset connection and then succeed', async () => {
      const result = await downloadLink(`${base}/reset-once?t=e`, dest(), local);
      expect(result.bytes).toBe((await stat(JFK)).size);
      expect(hits.get('/reset-once?t=e')).toBe(2);
    });

    it('should give up on connections that are always reset', async () => {
      const error = await failure(downloadLink(`${base}/reset?t=f`, dest(), local));
      expect(isAppError(error, 'upstream_unreachable')).toBe(true);
      expect(hits.get('/reset?t=f')).toBe(3);
    });

    it('should treat a body cut short as a failure and remove the partial file', async () => {
      const path = dest();
      const error = await failure(downloadLink(`${base}/cut-short?t=g`, path, local));
      expect(isAppError(error, 'upstream_unreachable')).toBe(true);
      expect(await exists(path)).toBe(false);
    });

    it('should report a refused connection as upstream_unreachable', async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const freePort = (closed.address() as AddressInfo).port;
      await new Promise((resolve) => closed.close(resolve));
      const error = await failure(downloadLink(`http://127.0.0.1:${freePort}/a.wav`, dest(), { ...local, maxAttempts: 1 }));
      expect(isAppError(error, 'upstream_unreachable')).toBe(true);
      expect(error.message).toContain('refused');
    });

    it('should report an unknown host name as upstream_unreachable', async () => {
      const error = await failure(downloadLink('http://no-such-host.invalid/a.wav', dest(), local));
      expect(isAppError(error, 'upstream_unreachable')).toBe(true);
      expect(error.message).toContain('no-such-host.invalid');
    });

    it('should reject with the caller’s reason when cancelled', async () => {
      const controller = new AbortController();
      const reason = new Error('cancelled by user');
      setTimeout(() => controller.abort(reason), 100);
      const error = await failure(downloadLink(`${base}/slow`, dest(), { ...local, signal: controller.signal }));
      expect(error).toBe(reason);
    });
  });

  describe('when the link is not allowed', () => {
    const SSRF = [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      '[fe80::1]',
      '[fc00::1]',
      '[::ffff:127.0.0.1]',
      '224.0.0.1',
    ];

    it.each(SSRF)('should refuse http://%s/ without allowPrivateNetwork', async (host) => {
      const error = await failure(downloadLink(`http://${host}/a.wav`, dest(), { ...local, allowPrivateNetwork: false }));
      expect(isAppError(error, 'address_not_allowed')).toBe(true);
    });

    it('should refuse localhost without the flag and fetch it with the flag', async () => {
      const url = `http://localhost:${port}/jfk.wav`;
      const refused = await failure(downloadLink(url, dest(), { ...local, allowPrivateNetwork: false }));
      expect(isAppError(refused, 'address_not_allowed')).toBe(true);
      expect(refused.message).toContain('localhost');
      const fetched = await downloadLink(url, dest(), local);
      expect(fetched.bytes).toBe((await stat(JFK)).size);
    });

    it.each(['ftp://example.com/a.wav', 'file:///etc/passwd', 'not a url'])('should refuse %s as invalid_input', async (url) => {
      const error = await failure(downloadLink(url, dest(), local));
      expect(isAppError(error, 'invalid_input')).toBe(true);
    });
  });
});
