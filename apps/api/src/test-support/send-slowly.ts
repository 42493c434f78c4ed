import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a slow client saw. */
export interface SlowAnswer {
  /** The status of the answer, or 0 when the connection closed without one. */
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  /** The body as text. */
  text: string;
  /** Bytes of the request body written to the socket before the answer came or the connection closed. */
  sent: number;
  /** Milliseconds from the first byte sent to the end of the connection. */
  ms: number;
}

export interface SlowRequest {
  /** e.g. `http://127.0.0.1:8080/v1/replicate/v1/predictions`. */
  url: string;
  method?: string;
  /** Headers besides Host, Content-Length (from `body`) and `Connection: close`. */
  headers: Record<string, string>;
  body: Buffer;
  /** Bytes written at a time. */
  chunkBytes: number;
  /** Pause after each chunk, ms: the rate is chunkBytes / intervalMs. */
  intervalMs: number;
  /** Stop sending (the connection stays open) after this many body bytes; default all of them. */
  stopAfterBytes?: number;
}

/**
 * A raw HTTP/1.1 client over a TCP socket that really sends slowly: the request line and headers
 * at once (with `Connection: close`, so the server closes after its answer), then `body` in chunks
 * of `chunkBytes` every `intervalMs`, as a slow uplink would. Stops writing as soon as an answer
 * arrives or the connection ends, and resolves once the server closes the connection, with the
 * answer parsed (status, headers, body). Socket errors after the server closed are part of the
 * story (a cut connection), not failures.
 */
export function sendSlowly(request: SlowRequest): Promise<SlowAnswer> {
  const url = new URL(request.url);
  const socket = connect(Number(url.port), url.hostname);
  const head = [
    `${request.method ?? 'POST'} ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Length: ${request.body.length}`,
    'Connection: close',
    ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  let received = Buffer.alloc(0);
  let sent = 0;
  let ended = false;
  const started = performance.now();
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.on('error', () => undefined); // EPIPE / ECONNRESET once the server cut the connection
  const closed = new Promise<void>((done) => socket.once('close', () => done()));
  void closed.then(() => (ended = true));
  void (async () => {
    await new Promise<void>((done) => socket.once('connect', () => done()));
    socket.write(`${head.join('\r\n')}\r\n\r\n`);
    const last = Math.min(request.body.length, request.stopAfterBytes ?? request.body.length);
    while (sent < last && !ended && received.length === 0) {
      const chunk = request.body.subarray(sent, Math.min(last, sent + request.chunkBytes));
      socket.write(chunk);
      sent += chunk.length;
      await sleep(request.intervalMs);
    }
  })();
  return closed.then(() => parseAnswer(received, sent, performance.now() - started));
}

function parseAnswer(bytes: Buffer, sent: number, ms: number): SlowAnswer {
  const text = bytes.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) return { status: 0, headers: {}, text, sent, ms };
  const [statusLine = '', ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0), headers, text: text.slice(split + 4), sent, ms };
}
