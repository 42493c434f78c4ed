import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { problemBody, titleOfStatus } from './map-error.ts';

/** Node's own limits of the API's server (node:http `createServer` options). */
export interface HttpServerLimits {
  /** The request line and headers must arrive within this, ms (`headersTimeout`): the slowloris bound on headers. */
  headersTimeoutMs: number;
  /**
   * A whole request must arrive within this, ms (`requestTimeout`): a backstop only, set above the
   * longest body http/limit-body-rate.ts allows, which answers first and in the API's shape.
   */
  requestTimeoutMs: number;
  /** How often Node checks both, ms (`connectionsCheckingInterval`; Node's default 30 s). */
  checkIntervalMs?: number;
}

/** Node's default `headersTimeout`, kept: a request's headers must arrive within 60 s. */
export const HEADERS_TIMEOUT_MS = 60_000;

/**
 * The answer to a request Node refuses before express sees it, as a problem+json body instead of
 * Node's bare status line: 408 when the headers (or, past the backstop, the whole request) did not
 * arrive in time, 431 for headers over Node's 16 KiB, 400 for what is not HTTP/1.1.
 */
function refusalOf(code: string | undefined): { status: number; detail: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      detail:
        'The request did not arrive in time: its headers must come within 60 s, and its body at the minimum rate of docs/api.md. Send it again.',
    };
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, detail: 'The request headers are larger than the service accepts (16 KiB in all).' };
  }
  return { status: 400, detail: 'The request is not valid HTTP/1.1 and could not be read.' };
}

/**
 * The API's HTTP server: express's `app` on node:http with `limits` (headers within
 * `headersTimeoutMs`, a whole request within the backstop `requestTimeoutMs`), and Node's refusals of
 * requests that never reached express (a header timeout, malformed HTTP, oversized headers) written
 * as problem+json like every other error, with `Connection: close`, the connection closed once the
 * answer is out. A connection whose answer has begun, or that the client reset, is closed without
 * one (writing would corrupt the answer in flight).
 */
export function createHttpServer(app: RequestListener, limits: HttpServerLimits): Server {
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      ...(limits.checkIntervalMs === undefined ? {} : { connectionsCheckingInterval: limits.checkIntervalMs }),
    },
    app,
  );
  const answers = new WeakMap<Duplex, ServerResponse>(); // the answer in progress on each connection
  server.on('request', (req, res: ServerResponse) => answers.set(req.socket, res));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable || answers.get(socket)?.headersSent) return void socket.destroy();
    const { status, detail } = refusalOf(error.code);
    const body = problemBody(status, detail);
    const head = [
      `HTTP/1.1 ${status} ${titleOfStatus(status)}`,
      'Content-Type: application/problem+json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  });
  return server;
}
