import type { AddressPolicy } from '../../platform/http/check-connect-address.ts';
import { createOutboundAgent } from '../../platform/http/create-outbound-agent.ts';
import { sendOutboundRequest } from '../../platform/http/send-outbound-request.ts';
import { createDeadline, type Deadline } from './create-deadline.ts';
import { followLocation, parseLinkUrl } from './parse-link-url.ts';

/** The same client name as a download (download-link.ts): a host that filters clients judges both alike. */
const USER_AGENT = 'transcribe-service/0.1 (media download)';
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface ProbeLinkOptions extends AddressPolicy {
  /** Total time budget in ms for the whole probe: both requests and every redirect hop. */
  timeoutMs: number;
  /** Redirects followed at most per request (default 5, as a download). */
  maxRedirects?: number;
  /** Cancels the probe; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * Whether an http(s) link still answers, without downloading it: a HEAD request, and when that does
 * not answer 2xx (hosts that refuse HEAD with 405 or 403, e.g. links presigned for GET only, or that
 * reset it) a one-byte ranged GET (`Range: bytes=0-0`; 206 or 200 count, the body is dropped at
 * once). Redirects are followed by hand, each hop a request through the outbound agent with the
 * SSRF `policy` (as downloads, download-link.ts), so a probe reaches nothing a download could not.
 * No retries: one refusal is enough to withhold a cached copy (resources/predictions/run/produce-transcript.ts).
 * @returns true when either request ends in a 2xx answer within `timeoutMs`; false for any other
 *   status, too many redirects, an invalid link or redirect, a refused address, an unreachable
 *   host, or the budget running out.
 * @throws the signal's reason when `options.signal` aborts.
 */
export async function probeLink(link: string, options: ProbeLinkOptions): Promise<boolean> {
  const deadline = createDeadline(options.timeoutMs, options.signal);
  try {
    for (const method of ['HEAD', 'GET'] as const) {
      const alive = await answers(link, method, options, deadline).catch(() => false);
      options.signal?.throwIfAborted();
      if (alive) return true;
      if (deadline.expired) return false;
    }
    return false;
  } finally {
    deadline.dispose();
  }
}

/** Whether `method` on `link` (redirects followed) ends in a 2xx answer. @throws on network failures. */
async function answers(link: string, method: 'HEAD' | 'GET', options: ProbeLinkOptions, deadline: Deadline): Promise<boolean> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: '*/*', 'accept-encoding': 'identity' };
  if (method === 'GET') headers.range = 'bytes=0-0';
  const policy: AddressPolicy = { allowPrivateNetwork: options.allowPrivateNetwork, allowedAddresses: options.allowedAddresses };
  let url = parseLinkUrl(link);
  for (let redirects = 0; ; redirects += 1) {
    const answer = await sendProbeRequest({ method, url, headers, signal: deadline.signal, policy });
    if (!REDIRECT_STATUSES.has(answer.status) || answer.location === undefined) return answer.status >= 200 && answer.status <= 299;
    if (redirects >= (options.maxRedirects ?? 5)) return false;
    url = followLocation(url, answer.location);
  }
}

/** One request of a probe: what it sends. */
export interface ProbeRequest {
  method: 'HEAD' | 'GET';
  url: URL;
  headers: Record<string, string>;
  /** Aborts the request (the probe's budget or the caller's cancel). */
  signal: AbortSignal;
  /** The SSRF rules every connection must pass (platform/http/check-connect-address.ts). */
  policy: AddressPolicy;
}

/** What a probe reads of an answer: its status and its Location header. */
export interface ProbeAnswer {
  status: number;
  location: string | undefined;
}

/**
 * Sends one probe request through the outbound HTTP of platform/http (an agent with `policy`, so
 * every connection is checked when it is made) and drops the answer's body at once, unread.
 * The one place a probe touches the transport: keep it narrow.
 * @throws AppError `address_not_allowed` for a refused address; the transport's errors (DNS,
 *   connection, TLS); the signal's reason when it aborts.
 */
export async function sendProbeRequest(probe: ProbeRequest): Promise<ProbeAnswer> {
  const agent = createOutboundAgent({ policy: probe.policy });
  try {
    const response = await sendOutboundRequest(probe.url, { agent, method: probe.method, headers: probe.headers, signal: probe.signal });
    response.body.destroy();
    return { status: response.status, location: response.headers.get('location') ?? undefined };
  } finally {
    agent.destroy();
  }
}
