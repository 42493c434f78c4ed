import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { Api } from 'grammy';
import { afterEach, describe, expect, it } from 'vitest';
import { BotApiCallError, retryBotApiCall, type BotApiRetryOptions, type FailedBotApiTry } from './retry-bot-api-call.ts';

const TOKEN = '123456:SECRET-token_xyz';
const servers: (Server | TcpServer)[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    if ('closeAllConnections' in server) server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

/** An HTTP server answering every request with `handle`; resolves to its root URL. */
async function serve(handle: (req: IncomingMessage, res: ServerResponse, count: number) => void): Promise<string> {
  let count = 0;
  const server = createHttpServer((req, res) => handle(req, res, ++count));
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/**
 * A TCP server that takes connections and does `onConnection` with them (never answers, or
 * resets); it reads what comes (so a client's close ends the connection) and answers nothing.
 */
async function tcpServer(onConnection: (socket: Socket) => void): Promise<{ root: string; connections: () => number }> {
  let connections = 0;
  const server = createTcpServer((socket) => {
    connections += 1;
    socket.resume();
    onConnection(socket);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { root: `http://127.0.0.1:${(server.address() as { port: number }).port}`, connections: () => connections };
}

/** A port nothing listens on (a server's, closed again). */
async function refusedRoot(): Promise<string> {
  const server = createTcpServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}`;
}

/** getMe through grammY against `root` with fast tries; returns the error and every failed try. */
async function getMeFailure(root: string, options: Partial<BotApiRetryOptions> = {}) {
  const tries: FailedBotApiTry[] = [];
  const api = new Api(TOKEN, { apiRoot: root });
  const error = await retryBotApiCall(
    (signal) => api.getMe(signal as Parameters<Api['getMe']>[0]),
    { apiRoot: root, token: TOKEN, method: 'getMe' },
    {
      attempts: 2,
      baseDelayMs: 10,
      tryTimeoutMs: 2_000,
      ...options,
      onFailedTry: (failed) => {
        tries.push(failed);
        options.onFailedTry?.(failed);
      },
    },
  ).then(
    () => {
      throw new Error('expected getMe to fail');
    },
    (failure: unknown) => failure,
  );
  return { error, tries };
}

const jsonAnswer = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('retryBotApiCall: the start-up calls of the Bot API', () => {
  it('should name a refused connection with host and port on every try, then fail with it', async () => {
    const root = await refusedRoot();
    const { error, tries } = await getMeFailure(root, { attempts: 3 });
    const port = new URL(root).port;
    expect(tries.map((failed) => [failed.tryNumber, failed.nextDelayMs])).toEqual([
      [1, 10],
      [2, 20],
      [3, null],
    ]);
    for (const failed of tries)
      expect(failed.failure.cause).toMatch(new RegExp(`^connection refused at 127\\.0\\.0\\.1:${port} .*TELEGRAM_API_ROOT`));
    expect(error).toBeInstanceOf(BotApiCallError);
    expect((error as BotApiCallError).message).toMatch(/^getMe failed: connection refused at 127\.0\.0\.1:/);
    expect((error as BotApiCallError).tries).toBe(3);
  });

  it('should name a DNS failure with the host name', async () => {
    const { tries } = await getMeFailure('http://no-such-host.invalid', { attempts: 1 });
    expect(tries[0]!.failure.cause).toMatch(/^DNS failure: no-such-host\.invalid (does not resolve|could not be resolved)/);
  });

  it('should cut a try the server never answers after its timeout, and say so', async () => {
    const hanging = await tcpServer(() => undefined);
    const { tries } = await getMeFailure(hanging.root, { attempts: 2, tryTimeoutMs: 300 });
    expect(tries).toHaveLength(2);
    expect(tries[0]!.failure.cause).toMatch(/^no answer from 127\.0\.0\.1:\d+ within 0\.3 s \(timeout/);
    expect(hanging.connections()).toBe(2);
  });

  it('should name a connection the server resets', async () => {
    const resetting = await tcpServer((socket) => socket.resetAndDestroy());
    const { tries } = await getMeFailure(resetting.root, { attempts: 1 });
    expect(tries[0]!.failure.cause).toMatch(/^connection to 127\.0\.0\.1:\d+ failed: the connection was reset/);
  });

  it.each([
    ['an HTML page', (res: ServerResponse) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'), 'text/html'],
    ['JSON that is not a Bot API answer', (res: ServerResponse) => jsonAnswer(res, 404, { detail: 'Not Found' }), 'application/json'],
  ])('should name HTTP 404 from the API root and TELEGRAM_API_ROOT when the root answers %s', async (_what, answer, type) => {
    const root = await serve((_req, res) => answer(res));
    const { error, tries } = await getMeFailure(root, { attempts: 1 });
    const cause = tries[0]!.failure.cause;
    expect(cause).toBe(
      `HTTP 404 from the API root ${root} (not a Bot API answer: ${type}): is TELEGRAM_API_ROOT right? (api.telegram.org also answers 404 to a malformed token)`,
    );
    expect((error as Error).message).not.toMatch(/undefined/);
    expect((error as Error).message).not.toContain(TOKEN);
  });

  it("should name the Bot API's own 404 answer", async () => {
    const root = await serve((_req, res) => jsonAnswer(res, 404, { ok: false, error_code: 404, description: 'Not Found' }));
    const { tries } = await getMeFailure(root, { attempts: 1 });
    expect(tries[0]!.failure.cause).toMatch(/^HTTP 404 from the API root http:\/\/127\.0\.0\.1:\d+: is TELEGRAM_API_ROOT right\?/);
  });

  it('should not try again after 401: the token is wrong', async () => {
    const root = await serve((_req, res) => jsonAnswer(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' }));
    const { error, tries } = await getMeFailure(root, { attempts: 5 });
    expect(tries).toHaveLength(1);
    expect(tries[0]!.nextDelayMs).toBeNull();
    expect((error as BotApiCallError).failure).toMatchObject({
      retryable: false,
      cause: 'HTTP 401 from the Bot API: the token is wrong (check TELEGRAM_BOT_TOKEN with @BotFather)',
    });
  });

  it("should wait a 429's retry_after and return the first success", async () => {
    const root = await serve((_req, res, count) =>
      count === 1
        ? jsonAnswer(res, 429, { ok: false, error_code: 429, description: 'Too Many Requests', parameters: { retry_after: 0.05 } })
        : count === 2
          ? jsonAnswer(res, 502, { ok: false, error_code: 502, description: 'Bad Gateway' })
          : jsonAnswer(res, 200, { ok: true, result: { id: 1, is_bot: true, first_name: 'B', username: 'b_bot' } }),
    );
    const tries: FailedBotApiTry[] = [];
    const api = new Api(TOKEN, { apiRoot: root });
    const me = await retryBotApiCall(
      (signal) => api.getMe(signal as Parameters<Api['getMe']>[0]),
      { apiRoot: root, token: TOKEN, method: 'getMe' },
      { attempts: 3, baseDelayMs: 10, onFailedTry: (failed) => tries.push(failed) },
    );
    expect(me.username).toBe('b_bot');
    expect(tries.map((failed) => [failed.failure.cause, failed.nextDelayMs])).toEqual([
      ['HTTP 429 from the Bot API: too many requests (it asks to wait 0.05 s)', 50],
      [expect.stringMatching(/^HTTP 502 from the Bot API at 127\.0\.0\.1:\d+: Bad Gateway$/), 20],
    ]);
  });

  it('should end at once with the reason when the signal aborts while a try hangs', async () => {
    const controller = new AbortController();
    const reason = new Error('stopping');
    const hanging = await tcpServer((socket) => socket.once('data', () => controller.abort(reason)));
    const { error, tries } = await getMeFailure(hanging.root, { attempts: Infinity, tryTimeoutMs: 600_000, signal: controller.signal });
    expect(error).toBe(reason);
    expect(tries).toEqual([]);
  });

  it('should end at once with the reason when the signal aborts while it waits for the next try', async () => {
    const controller = new AbortController();
    const reason = new Error('stopping');
    const { error, tries } = await getMeFailure(await refusedRoot(), {
      attempts: Infinity,
      baseDelayMs: 600_000,
      maxDelayMs: 600_000,
      signal: controller.signal,
      onFailedTry: () => controller.abort(reason),
    });
    expect(error).toBe(reason);
    expect(tries.map((failed) => failed.nextDelayMs)).toEqual([600_000]);
  });
});
