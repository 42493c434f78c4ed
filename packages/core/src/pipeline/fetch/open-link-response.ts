import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupAddress } from 'node:dns';
import { pinnedLookup } from './resolve-link-host.ts';

/** Error code set on the error raised when no connection is made within `connectTimeoutMs`. */
export const CONNECT_TIMEOUT_CODE = 'ECONNECTTIMEOUT';

const USER_AGENT = 'transcribe-service/0.1 (media download)';

/**
 * Sends one GET for `url` over a fresh connection pinned to `addresses` (already checked by
 * resolveLinkHost) and resolves with the response once its headers arrive. Redirects are not followed.
 * The body is left unread: the caller must consume or destroy the response.
 * @param options.connectTimeoutMs time in ms allowed for the TCP connection (not the download).
 * @param options.signal aborts the request and its response.
 * @throws the socket or parser error as Node reports it (ECONNREFUSED, ECONNRESET, TLS errors, …);
 *   an error with code {@link CONNECT_TIMEOUT_CODE} when connecting takes too long.
 */
export function openLinkResponse(
  url: URL,
  addresses: readonly LookupAddress[],
  options: { connectTimeoutMs: number; signal: AbortSignal },
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(addresses),
      signal: options.signal,
      headers: { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity' },
    });
    const stopConnectTimer = watchConnect(request, options.connectTimeoutMs);
    request.once('response', (response) => {
      stopConnectTimer();
      resolve(response);
    });
    request.once('error', (error) => {
      stopConnectTimer();
      reject(error);
    });
    request.end();
  });
}

/** Destroys `request` when its socket has not connected after `timeoutMs`; returns a stop function. */
function watchConnect(request: http.ClientRequest, timeoutMs: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  const stop = (): void => clearTimeout(timer);
  request.once('socket', (socket) => {
    if (!socket.connecting) return;
    timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error(`No connection within ${timeoutMs} ms`);
      error.code = CONNECT_TIMEOUT_CODE;
      request.destroy(error);
    }, timeoutMs);
    socket.once('connect', stop);
  });
  return stop;
}
