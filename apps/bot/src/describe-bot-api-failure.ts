import { GrammyError, HttpError } from 'grammy';
import { createOutboundAgent, createOutboundFetch } from '@transcribe/core';

/** Why one Bot API call failed, in an operator's words, and what that means for another try. */
export interface BotApiFailure {
  /**
   * The cause, naming the host and port or the HTTP status and what to check, e.g. `connection
   * refused at 127.0.0.1:8081 (nothing listens there: is TELEGRAM_API_ROOT right, or does a firewall
   * refuse it?)`. Never holds the token.
   */
  cause: string;
  /** False only for an answer that another try cannot change: 401, the token is wrong. */
  retryable: boolean;
  /** The wait a 429 asked for (`retry_after`), ms; null otherwise. */
  retryAfterMs: number | null;
}

/** Where the Bot API is and how the call was made (to name the host and to check a strange answer). */
export interface BotApiTarget {
  /** TELEGRAM_API_ROOT without trailing slash, e.g. `https://api.telegram.org`. */
  apiRoot: string;
  /** TELEGRAM_BOT_TOKEN: only used to ask `getMe` again for the HTTP status of a strange answer, and to keep it out of the words. */
  token: string;
  /** The Bot API method that failed, e.g. `getMe`. */
  method: string;
  /** How long the try was given, ms, when its own deadline (not a stop) cut it. */
  timedOutAfterMs?: number;
}

/** How long the second look at a strange answer (its HTTP status) may take, ms. */
const STATUS_PROBE_TIMEOUT_MS = 5_000;

const NETWORK_CAUSES: Record<string, string> = {
  ECONNRESET: 'the connection was reset (a proxy or firewall may cut it)',
  ETIMEDOUT: 'the connection timed out (a firewall that drops packets looks like this)',
  EHOSTUNREACH: 'no route to the host (EHOSTUNREACH)',
  ENETUNREACH: 'the network is unreachable (ENETUNREACH)',
  EPIPE: 'the connection was closed while sending (EPIPE)',
  ECONNABORTED: 'the connection was aborted (ECONNABORTED)',
};

/**
 * Puts a failed Bot API call (grammY's `HttpError` for a call that got no Bot API answer,
 * `GrammyError` for an answer with `ok: false`, or that answer itself as an API transformer sees
 * it) into an operator's words:
 * - no connection: `connection refused at HOST:PORT`, `DNS failure: HOST does not resolve`,
 *   `no answer from HOST:PORT within 10 s` (the try's own deadline), reset, unreachable, TLS;
 * - an answer: `HTTP 401 …: the token is wrong` (not retryable), `HTTP 404 from the API root ROOT:
 *   is TELEGRAM_API_ROOT right?`, `HTTP 429 …` with its wait, `HTTP 5xx …` with Telegram's description;
 * - an answer that is not the Bot API's (HTML, JSON without `ok`: grammY then reports
 *   "undefined: undefined" or an invalid JSON body): `getMe` is asked once more with `fetch` for
 *   the HTTP status and content type, and the status is worded as above.
 * Everything but 401 is retryable: a firewall opened, a proxy or a local Bot API server that comes
 * up, a DNS that answers again all heal. The token never appears in the words (the URL of a
 * failed request holds it, so request URLs and node-fetch messages are never quoted).
 * @returns the failure; never throws.
 */
export async function describeBotApiFailure(error: unknown, target: BotApiTarget): Promise<BotApiFailure> {
  const root = new URL(target.apiRoot);
  const hostPort = `${root.hostname}:${root.port || (root.protocol === 'https:' ? '443' : '80')}`;
  const retry = (cause: string): BotApiFailure => ({ cause, retryable: true, retryAfterMs: null });
  const answer = error instanceof GrammyError ? error : isErrorAnswer(error) ? error : null;
  if (answer && typeof answer.error_code === 'number') {
    return describeStatus(answer.error_code, answer.description, target, hostPort, answer.parameters?.retry_after);
  }
  if (answer) return probeStatus(target, hostPort); // ok: false without a code: not a Bot API answer
  if (target.timedOutAfterMs !== undefined) {
    return retry(
      `no answer from ${hostPort} within ${target.timedOutAfterMs / 1000} s (timeout: a firewall that drops packets, or a server that hangs)`,
    );
  }
  const inner = error instanceof HttpError ? error.error : error;
  const code = typeof (inner as { code?: unknown })?.code === 'string' ? (inner as { code: string }).code : null;
  const type = (inner as { type?: unknown })?.type;
  if (type === 'invalid-json') return probeStatus(target, hostPort);
  if (code === 'ECONNREFUSED') {
    return retry(`connection refused at ${hostPort} (nothing listens there: is TELEGRAM_API_ROOT right, or does a firewall refuse it?)`);
  }
  if (code === 'ENOTFOUND' || code === 'EAI_NONAME' || code === 'EAI_FAIL') {
    return retry(
      `DNS failure: ${root.hostname} does not resolve (${code}: is TELEGRAM_API_ROOT right, and can this machine resolve names?)`,
    );
  }
  if (code === 'EAI_AGAIN')
    return retry(`DNS failure: ${root.hostname} could not be resolved now (EAI_AGAIN: the DNS server did not answer)`);
  if (code && NETWORK_CAUSES[code]) return retry(`connection to ${hostPort} failed: ${NETWORK_CAUSES[code]}`);
  if (code && /CERT|SSL|TLS|EPROTO|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) {
    return retry(`TLS with ${hostPort} failed (${code}: a proxy that intercepts HTTPS, or a certificate this machine does not trust)`);
  }
  const named = code ?? (typeof type === 'string' ? type : null) ?? (inner instanceof Error ? inner.name : typeof inner);
  const message = inner instanceof Error ? inner.message.split(target.token).join('<token>').split('\n')[0] : '';
  return retry(`the request to ${hostPort} failed (${named}${message ? `: ${message}` : ''})`);
}

/** An answer `{ ok: false, error_code, description }` as the Bot API sends it (and an API transformer returns it). */
interface ErrorAnswer {
  ok: false;
  error_code?: unknown;
  description?: string;
  parameters?: { retry_after?: number };
}

function isErrorAnswer(value: unknown): value is ErrorAnswer {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

function describeStatus(
  status: number,
  description: string | undefined,
  target: BotApiTarget,
  hostPort: string,
  retryAfterSeconds: number | undefined,
  notBotApi = '',
): BotApiFailure {
  const said = description ? `: ${description}` : '';
  if (status === 401) {
    const cause = notBotApi
      ? `HTTP 401 from ${hostPort}${notBotApi}: a proxy asks for credentials, or the token is wrong (TELEGRAM_BOT_TOKEN)`
      : 'HTTP 401 from the Bot API: the token is wrong (check TELEGRAM_BOT_TOKEN with @BotFather)';
    return { cause, retryable: false, retryAfterMs: null };
  }
  if (status === 404) {
    return {
      cause: `HTTP 404 from the API root ${target.apiRoot}${notBotApi}: is TELEGRAM_API_ROOT right? (api.telegram.org also answers 404 to a malformed token)`,
      retryable: true,
      retryAfterMs: null,
    };
  }
  if (status === 429) {
    const wait = typeof retryAfterSeconds === 'number' ? retryAfterSeconds * 1000 : null;
    return {
      cause: `HTTP 429 from the Bot API: too many requests${wait === null ? '' : ` (it asks to wait ${retryAfterSeconds} s)`}`,
      retryable: true,
      retryAfterMs: wait,
    };
  }
  const from = notBotApi ? `${hostPort}${notBotApi}` : `the Bot API at ${hostPort}`;
  return { cause: `HTTP ${status} from ${from}${said}`, retryable: true, retryAfterMs: null };
}

/**
 * Asks the API root once more, for the HTTP status and content type grammY does not keep: with
 * `getMe`, whatever method failed (it changes nothing, where a second `getUpdates` could).
 */
async function probeStatus(target: BotApiTarget, hostPort: string): Promise<BotApiFailure> {
  const url = `${target.apiRoot}/bot${target.token}/getMe`;
  const agent = createOutboundAgent(); // the Bot API server is the operator's: no address policy
  try {
    const response = await createOutboundFetch(agent)(url, { redirect: 'manual', signal: AbortSignal.timeout(STATUS_PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    const type = response.headers.get('content-type')?.split(';')[0] ?? 'no content type';
    const notBotApi = ` (not a Bot API answer: ${type})`;
    if (response.status === 401 || response.status === 404 || response.status >= 300) {
      return describeStatus(response.status, response.statusText, target, hostPort, undefined, notBotApi);
    }
    return {
      cause: `HTTP ${response.status} from ${hostPort}${notBotApi}: is TELEGRAM_API_ROOT the root of a Bot API server?`,
      retryable: true,
      retryAfterMs: null,
    };
  } catch {
    return {
      cause: `an answer from ${hostPort} that is not a Bot API answer: is TELEGRAM_API_ROOT the root of a Bot API server?`,
      retryable: true,
      retryAfterMs: null,
    };
  } finally {
    agent.destroy();
  }
}
