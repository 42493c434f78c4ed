import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from './post-webhook.ts';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A local receiver: `/status/<code>` answers that code (3xx with a Location), `/hang` never answers. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url === '/hang') return;
      const code = Number(/^\/status\/(\d+)$/.exec(req.url ?? '')?.[1] ?? 200);
      res.writeHead(code, code >= 300 && code < 400 ? { location: '/redirected' } : {}).end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const local = { allowPrivateNetwork: true, timeoutMs: 2000 };
const body = Buffer.from('{"id":"p1","status":"succeeded"}');

describe('postWebhook', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });

  it('should POST the exact body with the given headers and count a 2xx as delivered', async () => {
    const result = await postWebhook(`${receiver.url}/status/204`, body, { 'webhook-id': 'msg_1' }, local);
    expect(result).toMatchObject({ delivered: true, statusCode: 204, error: null });
    const got = receiver.received.at(-1)!;
    expect(got.body.equals(body)).toBe(true);
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe('msg_1');
  });

  it('should not follow a redirect and count it as a failed, retryable attempt', async () => {
    const before = receiver.received.length;
    const result = await postWebhook(`${receiver.url}/status/302`, body, {}, local);
    expect(result).toMatchObject({ delivered: false, statusCode: 302, retryable: true });
    expect(result.error).toContain('not followed');
    await new Promise((done) => setTimeout(done, 100));
    expect(receiver.received.slice(before).map((entry) => entry.path)).toEqual(['/status/302']);
  });

  it('should stop on a 4xx other than 408 and 429, and retry 408, 429 and 5xx', async () => {
    expect(await postWebhook(`${receiver.url}/status/400`, body, {}, local)).toMatchObject({ statusCode: 400, retryable: false });
    expect(await postWebhook(`${receiver.url}/status/410`, body, {}, local)).toMatchObject({ statusCode: 410, retryable: false });
    for (const code of [408, 429, 500, 503]) {
      expect(await postWebhook(`${receiver.url}/status/${code}`, body, {}, local)).toMatchObject({ statusCode: code, retryable: true });
    }
  });

  it('should give up on a receiver that does not answer in time, as a retryable failure', async () => {
    const result = await postWebhook(`${receiver.url}/hang`, body, {}, { allowPrivateNetwork: true, timeoutMs: 300 });
    expect(result).toMatchObject({ delivered: false, statusCode: null, retryable: true });
    expect(result.error).toContain('No answer within 300 ms');
  });

  it('should report a refused connection as retryable', async () => {
    const result = await postWebhook('http://127.0.0.1:1/', body, {}, local);
    expect(result).toMatchObject({ delivered: false, statusCode: null, retryable: true });
    expect(result.error).toMatch(/ECONNREFUSED/);
  });
});

describe('postWebhook without private networks', () => {
  const strict = { allowPrivateNetwork: false, timeoutMs: 2000 };

  it.each([
    'https://127.0.0.1/hook',
    'https://localhost/hook',
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://224.0.0.1/hook',
  ])('should refuse %s before connecting, for good', async (url) => {
    const result = await postWebhook(url, body, {}, strict);
    expect(result).toMatchObject({ delivered: false, statusCode: null, retryable: false });
    expect(result.error).toMatch(/^Refused: .*private or local network address/);
  });

  it('should refuse a plain http:// URL', async () => {
    const result = await postWebhook('http://example.com/hook', body, {}, strict);
    expect(result).toMatchObject({ delivered: false, retryable: false });
    expect(result.error).toContain('must start with https://');
  });

  it('should refuse a URL that does not parse', async () => {
    expect(await postWebhook('not a url', body, {}, strict)).toMatchObject({
      delivered: false,
      retryable: false,
      error: 'The webhook URL is not a valid URL.',
    });
  });
});
