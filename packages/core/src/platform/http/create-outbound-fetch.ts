import { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { createOutboundAgent } from './create-outbound-agent.ts';
import type { OutboundAgent, OutboundAgentOptions } from './create-outbound-agent.ts';
import { sendOutboundRequest } from './send-outbound-request.ts';
import type { OutboundResponse } from './send-outbound-request.ts';

/** A WHATWG `fetch` whose connections all go through one outbound agent. */
export type OutboundFetch = typeof globalThis.fetch;

/** Redirects followed at most, as the Fetch standard's "HTTP-redirect fetch" (step 5) allows. */
const MAX_REDIRECTS = 20;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Statuses whose Response must have a null body (Fetch standard, "null body status"). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** Headers that leave a request when a redirect changes it into a GET without body (Fetch standard, 4.4 step 12). */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'];
/** Headers dropped on a redirect to another origin (Fetch standard, 4.4 step 13). */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

/**
 * A `fetch` (same signature as the global one) that sends every request through `agent`, or
 * through a new {@link createOutboundAgent} built from `options`, over Node's own HTTP client
 * ({@link sendOutboundRequest}): hand it to SDKs (the openai client's `fetch` option) and use it for
 * plain downloads, so every outbound request of the service goes through the one agent and its
 * checks, and none through undici's HTTP/1 parser, which can crash the process
 * (create-outbound-agent.ts says why).
 *
 * What it keeps of the Fetch standard: the request is normalised by the global `Request` (so a
 * `FormData` body is encoded as multipart with its boundary, as the SDKs expect); redirects are
 * followed (`follow`, at most 20, 303 and a POST's 301/302 become a GET, credentials dropped on
 * another origin), returned (`manual`) or refused (`error`); gzip, deflate and br bodies are
 * decoded; a failure is a `TypeError('fetch failed')` with the cause, an abort rejects with the
 * signal's reason. `data:` and `blob:` URLs need no network and go to the global fetch.
 * What differs: the request body is collected in memory before sending (bodies here are JSON and
 * audio chunks of at most 25 MB), so it is sent with a Content-Length; `response.url` is empty.
 */
export function createOutboundFetch(agentOrOptions: OutboundAgent | OutboundAgentOptions = {}): OutboundFetch {
  const agent = 'destroy' in agentOrOptions ? agentOrOptions : createOutboundAgent(agentOrOptions);
  return async (input, init) => {
    // `duplex: 'half'` lets a stream body through the Request constructor (Node requires it for one).
    const request = new Request(input, init?.body == null ? init : ({ ...init, duplex: 'half' } as RequestInit));
    let url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return globalThis.fetch(request);
    let method = request.method;
    let body: Uint8Array | undefined = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers = Object.fromEntries(request.headers);
    const { signal } = request;
    for (let redirects = 0; ; redirects += 1) {
      let answer: OutboundResponse;
      try {
        answer = await sendOutboundRequest(url, { agent, method, headers, body, signal });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw new TypeError('fetch failed', { cause: error });
      }
      const location = answer.headers.get('location');
      if (!REDIRECT_STATUSES.has(answer.status) || location === null || request.redirect === 'manual') {
        return toResponse(answer, method);
      }
      answer.body.destroy();
      if (request.redirect === 'error') throw new TypeError('fetch failed', { cause: new Error(`Redirect to ${location} refused.`) });
      if (redirects >= MAX_REDIRECTS) throw new TypeError('fetch failed', { cause: new Error('redirect count exceeded') });
      const next = new URL(location, url);
      const status = answer.status;
      if ((status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        for (const name of BODY_HEADERS) delete headers[name];
      }
      if (next.origin !== url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
      url = next;
    }
  };
}

/** The WHATWG Response of an answer: its body decoded when it names a content coding fetch decodes. */
function toResponse(answer: OutboundResponse, method: string): Response {
  const init = { status: answer.status, statusText: answer.statusText, headers: answer.headers };
  if (method === 'HEAD' || NULL_BODY_STATUSES.has(answer.status)) {
    answer.body.resume(); // nothing to read; lets the connection go back to the pool
    return new Response(null, init);
  }
  const coding = answer.headers.get('content-encoding')?.trim().toLowerCase();
  const decoder =
    coding === 'gzip' || coding === 'x-gzip'
      ? createGunzip()
      : coding === 'deflate'
        ? createInflate()
        : coding === 'br'
          ? createBrotliDecompress()
          : undefined;
  const raw: Readable = answer.body;
  const body = decoder === undefined ? raw : raw.pipe(decoder);
  if (decoder !== undefined) raw.once('error', (error) => decoder.destroy(error));
  return new Response(Readable.toWeb(body) as unknown as ReadableStream<Uint8Array>, init);
}
