import http from 'node:http';
import https from 'node:https';
import type { IncomingMessage } from 'node:http';
import type { OutboundAgent } from './create-outbound-agent.ts';

export interface OutboundRequestOptions {
  /** The connection pools to use (createOutboundAgent): they carry the address checks. */
  agent: OutboundAgent;
  /** Default `GET`. */
  method?: string;
  headers?: Record<string, string>;
  /** The whole request body (its length is sent as Content-Length). */
  body?: Uint8Array | string;
  /** Cancels the request, also while the body is being read; the promise or the body then fails with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Longest silence of the connection, ms (no byte sent or received), while connecting, waiting
   * for the answer or reading its body; then the request fails with code `ETIMEDOUT`. Default
   * 300 000, undici's headers and body timeouts: a safety net under the caller's own deadline.
   */
  idleTimeoutMs?: number;
}

/** The answer's head, and its body as a Node stream with back-pressure (read it, or destroy it). */
export interface OutboundResponse {
  status: number;
  /** The reason phrase as sent (may be empty). */
  statusText: string;
  headers: Headers;
  /** The body; the connection is released when it has been read to the end or destroyed. */
  body: IncomingMessage;
}

/**
 * Sends one HTTP(S) request through `options.agent` with Node's own HTTP client and resolves with
 * the answer's head. Redirects are not followed. A server that speaks HTTP/1.0, closes the
 * connection right after the body, or sends a body delimited by the end of the connection is read
 * correctly; a body cut short fails the body stream (code `ECONNRESET`, "aborted"), never
 * resolves as complete.
 * @throws a TypeError for a URL that is not http: or https:; the agent's errors (AppError
 *   `address_not_allowed`, DNS and connection errors with their `code`, `ECONNECT_TIMEOUT`);
 *   an error with code `ETIMEDOUT` after `idleTimeoutMs` of silence; the signal's reason on abort.
 */
export function sendOutboundRequest(url: URL | string, options: OutboundRequestOptions): Promise<OutboundResponse> {
  const target = typeof url === 'string' ? new URL(url) : url;
  const client = target.protocol === 'https:' ? https : target.protocol === 'http:' ? http : undefined;
  if (client === undefined) return Promise.reject(new TypeError(`Only http: and https: URLs can be requested (got ${target.protocol}).`));
  const { signal } = options;
  if (signal?.aborted === true) return Promise.reject(signal.reason);
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  return new Promise<OutboundResponse>((resolve, reject) => {
    const request = client.request(target, {
      agent: target.protocol === 'https:' ? options.agent.https : options.agent.http,
      method: options.method ?? 'GET',
      headers,
      timeout: idleTimeoutMs,
    });
    const abort = (): void => {
      request.destroy(signal?.reason instanceof Error ? signal.reason : abortError(signal?.reason));
    };
    signal?.addEventListener('abort', abort, { once: true });
    request.once('close', () => signal?.removeEventListener('abort', abort));
    request.on('timeout', () => {
      const error: NodeJS.ErrnoException = new Error(`The connection was silent for ${idleTimeoutMs} ms.`);
      error.code = 'ETIMEDOUT';
      request.destroy(error);
    });
    request.on('error', reject);
    request.on('response', (response) => {
      response.on('error', () => undefined); // the reader sees the error through its own read; none left unhandled
      const headerList = new Headers();
      for (let i = 0; i + 1 < response.rawHeaders.length; i += 2) {
        try {
          headerList.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
        } catch {
          // a header value Headers cannot hold (a byte outside Latin-1): dropped, as a browser would
        }
      }
      resolve({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: headerList, body: response });
    });
    request.end(options.body);
  });
}

function abortError(reason: unknown): Error {
  return new DOMException(typeof reason === 'string' ? reason : 'This operation was aborted', 'AbortError');
}
