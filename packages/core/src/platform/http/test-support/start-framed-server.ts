/**
 * HTTP servers that frame their answers the way real hosts do and Node's own server does not:
 * an HTTP/1.0 status line (python's `http.server`), `Connection: close` with a Content-Length and
 * a FIN right after the body, a body delimited only by the end of the connection, or a body cut
 * short. The answer is written straight to the socket in one go, then the socket is ended, so a
 * client that reads the body slower than loopback delivers it sees the connection end while
 * its parser still holds unread data: the case that crashed undici (nodejs/undici#5360).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * How the body is delimited:
 * - `http1.0`: `HTTP/1.0` status line with a Content-Length, closed after the body;
 * - `close`: `HTTP/1.1`, Content-Length and `Connection: close`, FIN right after the body;
 * - `eof`: `HTTP/1.1` without Content-Length or chunking: the body ends when the connection does;
 * - `cut`: a Content-Length larger than what is sent: half the body, then FIN (a broken download);
 * - `keep-alive`: Node's own server answers (Content-Length, the connection kept open): the baseline.
 */
export type ResponseFraming = 'http1.0' | 'close' | 'eof' | 'cut' | 'keep-alive';

/** Every framing that ends the connection right after a complete body. */
export const CLOSING_FRAMINGS: readonly ResponseFraming[] = ['http1.0', 'close', 'eof'];

/** One request as the server received it (its body read whole). */
export interface FramedRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The answer to write. */
export interface FramedAnswer {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Default: the server's framing. */
  framing?: ResponseFraming;
  /**
   * Once the whole answer has left for the client, keep this process's event loop blocked this
   * long (ms). The client runs in the same process, so it plays a client that was busy when the
   * answer arrived: the whole body and the FIN wait in its socket and are read in one go.
   */
  stallMs?: number;
}

export interface FramedServer {
  /** `http://127.0.0.1:PORT` */
  url: string;
  /** Every request received, in order. */
  requests: FramedRequest[];
  close(): Promise<void>;
}

/**
 * Writes a whole answer to `socket` framed as `framing` (see {@link ResponseFraming}; not
 * `keep-alive`, which is Node's own server's answer) and ends the socket. Nothing else may write
 * to the socket afterwards.
 */
export function writeFramedAnswer(socket: Socket, framing: Exclude<ResponseFraming, 'keep-alive'>, answer: FramedAnswer): void {
  const status = answer.status ?? 200;
  const body = Buffer.isBuffer(answer.body) ? answer.body : Buffer.from(answer.body ?? '');
  const reason = http.STATUS_CODES[status] ?? 'Unknown';
  const lines = [`${framing === 'http1.0' ? 'HTTP/1.0' : 'HTTP/1.1'} ${status} ${reason}`];
  for (const [name, value] of Object.entries(answer.headers ?? {})) lines.push(`${name}: ${value}`);
  if (framing === 'cut') lines.push(`Content-Length: ${body.length * 2 + 1000}`);
  else if (framing !== 'eof') lines.push(`Content-Length: ${body.length}`);
  lines.push('Connection: close');
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const stallMs = answer.stallMs ?? 0;
  socket.end(framing === 'cut' ? body.subarray(0, Math.floor(body.length / 2)) : body, () => {
    if (stallMs > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallMs);
  });
}

/**
 * Starts a server on 127.0.0.1 (a free port) that reads each request whole, asks `respond` for
 * the answer and writes it with {@link writeFramedAnswer} in `framing` (or the answer's own).
 * A `respond` that throws answers 500 in the same framing.
 */
export async function startFramedServer(
  framing: ResponseFraming,
  respond: (request: FramedRequest) => FramedAnswer | Promise<FramedAnswer>,
): Promise<FramedServer> {
  const requests: FramedRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received: FramedRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(received);
      Promise.resolve()
        .then(() => respond(received))
        .catch((error: unknown): FramedAnswer => ({ status: 500, body: String(error) }))
        .then((answer) => {
          const how = answer.framing ?? framing;
          if (how === 'keep-alive') {
            const body = answer.body ?? '';
            response.writeHead(answer.status ?? 200, { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) }).end(body);
          } else {
            writeFramedAnswer(request.socket, how, answer); // raw bytes: the response object is never used
          }
        });
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
