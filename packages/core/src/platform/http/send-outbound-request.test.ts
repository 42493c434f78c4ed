import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf } from './classify-http-failure.ts';
import { CONNECT_TIMEOUT_CODE, createOutboundAgent } from './create-outbound-agent.ts';
import { sendOutboundRequest } from './send-outbound-request.ts';
import { CLOSING_FRAMINGS, startFramedServer } from './test-support/start-framed-server.ts';
import type { FramedServer, ResponseFraming } from './test-support/start-framed-server.ts';

/** 4 MiB: far above any stream's high-water mark, so a slow reader leaves data unread when the FIN comes. */
const BODY = Buffer.from(Array.from({ length: 4 * 1024 * 1024 }, (_, i) => (i * 7) % 251));
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

const servers = new Map<ResponseFraming, FramedServer>();

beforeAll(async () => {
  for (const framing of [...CLOSING_FRAMINGS, 'cut', 'keep-alive'] as const) {
    servers.set(framing, await startFramedServer(framing, () => ({ headers: { 'content-type': 'application/octet-stream' }, body: BODY })));
  }
});

afterAll(async () => {
  for (const server of servers.values()) await server.close();
});

/** Reads a body the way a slow disk or a busy process would: a pause after every chunk. */
async function readSlowly(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) {
    chunks.push(chunk);
    await sleep(2);
  }
  return Buffer.concat(chunks);
}

describe('sendOutboundRequest against servers that close right after the body', () => {
  for (const framing of [...CLOSING_FRAMINGS, 'keep-alive'] as const) {
    it(`should read a whole body framed as ${framing}, with a slow reader, three times over`, async () => {
      const agent = createOutboundAgent();
      try {
        for (let round = 0; round < 3; round += 1) {
          const answer = await sendOutboundRequest(`${servers.get(framing)!.url}/file`, { agent });
          expect(answer.status).toBe(200);
          expect(answer.headers.get('content-type')).toBe('application/octet-stream');
          const bytes = await readSlowly(answer.body);
          expect(sha(bytes)).toBe(sha(BODY));
        }
      } finally {
        agent.destroy();
      }
    });
  }

  it('should read a body nobody reads for a while, then all at once', async () => {
    const agent = createOutboundAgent();
    const answer = await sendOutboundRequest(`${servers.get('close')!.url}/late`, { agent });
    await sleep(300); // the server has sent everything and closed by now
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).length).toBe(BODY.length);
    agent.destroy();
  });

  it('should fail the body, never complete it, when the connection ends before the declared length', async () => {
    const agent = createOutboundAgent();
    const answer = await sendOutboundRequest(`${servers.get('cut')!.url}/cut`, { agent });
    const error = await readSlowly(answer.body).then(
      () => null,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(Error);
    expect(codeOf(error)).toBe('ECONNRESET');
    agent.destroy();
  });
});

describe('sendOutboundRequest: bodies, timeouts, aborts', () => {
  let server: http.Server;
  let base: string;
  const received: { method?: string; length?: string; body: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/silent') return; // never answers
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ method: req.method, length: req.headers['content-length'], body: Buffer.concat(chunks).toString() });
        res.writeHead(201, 'Made It', { 'x-a': 'one' }).end('done');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('should send the body with its length, and give the status, reason phrase and headers', async () => {
    const agent = createOutboundAgent();
    const answer = await sendOutboundRequest(`${base}/post`, { agent, method: 'POST', body: 'héllo', headers: { 'x-b': '2' } });
    expect([answer.status, answer.statusText, answer.headers.get('x-a')]).toEqual([201, 'Made It', 'one']);
    answer.body.resume();
    expect(received.at(-1)).toEqual({ method: 'POST', length: String(Buffer.byteLength('héllo')), body: 'héllo' });
    agent.destroy();
  });

  it('should fail with ETIMEDOUT when the server stays silent for the idle timeout', async () => {
    const agent = createOutboundAgent();
    const error = await sendOutboundRequest(`${base}/silent`, { agent, idleTimeoutMs: 200 }).catch((failure: unknown) => failure);
    expect(codeOf(error)).toBe('ETIMEDOUT');
    agent.destroy();
  });

  it("should reject with the signal's reason when aborted", async () => {
    const agent = createOutboundAgent();
    const controller = new AbortController();
    const pending = sendOutboundRequest(`${base}/silent`, { agent, signal: controller.signal });
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    await expect(sendOutboundRequest(`${base}/post`, { agent, signal: controller.signal })).rejects.toBe(reason);
    agent.destroy();
  });

  it('should refuse other protocols', async () => {
    const agent = createOutboundAgent();
    await expect(sendOutboundRequest('ftp://example.com/x', { agent })).rejects.toThrow(/Only http: and https:/);
    agent.destroy();
  });

  it('should fail with the connect-timeout code when the TLS handshake never completes', async () => {
    // A TCP server that accepts and then says nothing: TCP connects, TLS never does.
    const accepted: net.Socket[] = [];
    const mute = net.createServer((socket) => accepted.push(socket));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    const agent = createOutboundAgent({ connectTimeoutMs: 200 });
    const error = await sendOutboundRequest(`https://127.0.0.1:${(mute.address() as AddressInfo).port}/`, { agent }).catch(
      (failure: unknown) => failure,
    );
    expect(codeOf(error)).toBe(CONNECT_TIMEOUT_CODE);
    agent.destroy();
    for (const socket of accepted) socket.destroy();
    await new Promise((resolve) => mute.close(resolve));
  });
});
