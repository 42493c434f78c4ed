import { isAppError } from '../../platform/errors/app-error.ts';
import { codeOf } from '../../platform/http/classify-http-failure.ts';
import { createOutboundAgent } from '../../platform/http/create-outbound-agent.ts';
import type { OutboundAgent } from '../../platform/http/create-outbound-agent.ts';
import { sendOutboundRequest } from '../../platform/http/send-outbound-request.ts';

const USER_AGENT = 'transcribe-service/0.1 (webhook)';

export interface WebhookPostOptions {
  /** Lets the URL be `http:` and reach loopback / private addresses (local use, ALLOW_PRIVATE_NETWORK=1). */
  allowPrivateNetwork: boolean;
  /** Time in ms for the whole request, connection included (default 10 000). */
  timeoutMs?: number;
}

export interface WebhookPostResult {
  /** True when the receiver answered 2xx. */
  delivered: boolean;
  /** HTTP status of the answer, or null when none came. */
  statusCode: number | null;
  /** Why the attempt failed (plain words), or null when delivered. */
  error: string | null;
  /** False when trying again cannot help: a 4xx other than 408/429, a refused address, a bad URL. */
  retryable: boolean;
  durationMs: number;
}

/**
 * POSTs one signed webhook body (replicate-compat.md 7): HTTPS only unless private
 * networks are allowed. The request goes through the outbound agent (platform/http), whose DNS
 * lookup checks every address against loopback, private, link-local, multicast and metadata ranges
 * (IPv4 and IPv6) when it connects, so the connection uses only checked addresses; redirects are
 * never followed (a 3xx is a failed attempt). Retries are the webhook queue's (one try per call).
 * Never throws: every outcome is a {@link WebhookPostResult}.
 */
export async function postWebhook(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  options: WebhookPostOptions,
): Promise<WebhookPostResult> {
  const started = Date.now();
  const done = (result: Omit<WebhookPostResult, 'durationMs'>): WebhookPostResult => ({ ...result, durationMs: Date.now() - started });
  const target = parseTarget(url, options.allowPrivateNetwork);
  if (typeof target === 'string') return done({ delivered: false, statusCode: null, error: target, retryable: false });
  const agent = createOutboundAgent({ policy: { allowPrivateNetwork: options.allowPrivateNetwork } });
  try {
    const answer = await send(target, agent, body, headers, options.timeoutMs ?? 10_000);
    return done(judgeStatus(answer.statusCode, answer.location));
  } catch (error) {
    if (isAppError(error, 'address_not_allowed')) {
      return done({ delivered: false, statusCode: null, error: `Refused: ${error.message}`, retryable: false });
    }
    const dns = (error as NodeJS.ErrnoException).syscall === 'getaddrinfo' || ['ENOTFOUND', 'EAI_AGAIN'].includes(codeOf(error) ?? '');
    const text = dns ? `DNS lookup of ${target.hostname} failed: ${describe(error)}` : describe(error);
    return done({ delivered: false, statusCode: null, error: text, retryable: true });
  } finally {
    agent.destroy();
  }
}

/** The URL to post to, or the reason it cannot be used. */
function parseTarget(url: string, allowPrivateNetwork: boolean): URL | string {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return 'The webhook URL is not a valid URL.';
  }
  if (target.protocol === 'https:' || (allowPrivateNetwork && target.protocol === 'http:')) return target;
  return `The webhook URL must start with https:// (it starts with ${target.protocol}//).`;
}

/** 2xx delivered; 3xx not followed (retryable); 408 and 429 retryable; other 4xx final; 5xx retryable. */
function judgeStatus(statusCode: number, location: string | undefined): Omit<WebhookPostResult, 'durationMs'> {
  if (statusCode >= 200 && statusCode < 300) return { delivered: true, statusCode, error: null, retryable: false };
  if (statusCode >= 300 && statusCode < 400) {
    return { delivered: false, statusCode, error: `Redirect to ${location ?? '(no location)'} not followed.`, retryable: true };
  }
  const final = statusCode >= 400 && statusCode < 500 && statusCode !== 408 && statusCode !== 429;
  return { delivered: false, statusCode, error: `The receiver answered HTTP ${statusCode}.`, retryable: !final };
}

async function send(
  target: URL,
  agent: OutboundAgent,
  body: Buffer,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<{ statusCode: number; location: string | undefined }> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await sendOutboundRequest(target, {
      agent,
      method: 'POST',
      signal,
      body,
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': USER_AGENT },
    });
    response.body.resume(); // the answer's body is not needed
    return { statusCode: response.status, location: response.headers.get('location') ?? undefined };
  } catch (error) {
    throw signal.aborted ? new Error(`No answer within ${timeoutMs} ms.`) : error;
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
