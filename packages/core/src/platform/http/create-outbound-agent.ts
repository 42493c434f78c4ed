import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { assertAllowedAddress, createCheckedLookup } from './check-connect-address.ts';
import type { AddressPolicy, ResolveHost } from './check-connect-address.ts';

export interface OutboundAgentOptions {
  /**
   * The SSRF rules every connection of the agent must pass (check-connect-address.ts). Absent for
   * endpoints the operator configured (LLM, remote ASR, model releases, the Telegram Bot API):
   * those are usually local, so they are not checked.
   */
  policy?: AddressPolicy;
  /** Time in ms allowed for each TCP (and TLS) connection; default 10 000. */
  connectTimeoutMs?: number;
  /** Host resolver for the checked lookup (tests inject one to play DNS rebinding). */
  resolve?: ResolveHost;
}

/**
 * The connection pools of one outbound client: Node's own `http.Agent` and `https.Agent`, both
 * opening their connections through the same checks. Pick the one of the URL's protocol.
 */
export interface OutboundAgent {
  readonly http: http.Agent;
  readonly https: https.Agent;
  /** Closes every socket of both pools (in use or idle); requests still running fail. */
  destroy(): void;
}

/** Error code of the error raised when no connection (TCP, and TLS for https) is made within `connectTimeoutMs`. */
export const CONNECT_TIMEOUT_CODE = 'ECONNECT_TIMEOUT';

type ConnectCallback = (error: Error | null, stream: Duplex) => void;

/**
 * The connection pools all outbound HTTP of the service goes through (downloads, webhooks, remote
 * ASR, the LLM client, model installs, Telegram files). They are Node's own `http`/`https` agents,
 * not undici: undici 6 and 7 (the only lines that run on Node 20) crash the whole process with an
 * uncatchable `assert(!this.paused)` when a server closes the connection while a response body is
 * paused by back-pressure (nodejs/undici#5360, fixed only in undici 8, which needs Node ≥ 22.19);
 * docs/reliability.md, "Outbound HTTP client".
 *
 * With a `policy`, EVERY connection the agents open, hence every redirect hop and every retry, is
 * checked when it is made: a host name through the checked DNS lookup (all its addresses; the
 * socket then uses exactly those), a literal IP address (which `net.connect` never looks up) before
 * connecting. Checking at connect time rather than before the request is what closes redirects to
 * private addresses and DNS rebinding. `agent.createConnection` is the documented way to supply a
 * custom socket (Node's http docs, "agent.createConnection").
 * Keep-alive connections are reused per origin; each one was checked when it was opened.
 * Call `destroy()` when the agent is no longer used, or let idle sockets time out (they do not
 * keep the process alive).
 * @throws through requests: AppError `address_not_allowed` for a refused address, the resolver's
 *   errors, an error with code {@link CONNECT_TIMEOUT_CODE} when connecting takes too long.
 */
export function createOutboundAgent(options: OutboundAgentOptions = {}): OutboundAgent {
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  const { policy } = options;
  const lookup = policy === undefined ? undefined : createCheckedLookup(policy, options.resolve);
  /** The connection of `base` (net.connect or tls.connect) after the literal-address check, with a connect timeout. */
  const connect = (
    base: (connectOptions: http.ClientRequestArgs, callback?: ConnectCallback) => Duplex | null | undefined,
    connectOptions: http.ClientRequestArgs,
    callback: ConnectCallback | undefined,
    secure: boolean,
  ): Duplex | null | undefined => {
    const host = String(connectOptions.host ?? connectOptions.hostname ?? '').replace(/^\[|\]$/g, '');
    if (policy !== undefined && isIP(host) !== 0) {
      try {
        assertAllowedAddress(host, host, policy);
      } catch (error) {
        queueMicrotask(() => callback?.(error as Error, undefined as unknown as Duplex));
        return undefined;
      }
    }
    const socket = base(lookup === undefined ? connectOptions : { ...connectOptions, lookup }, callback) as Socket | null | undefined;
    if (socket) limitConnectTime(socket, timeoutMs, secure ? 'secureConnect' : 'connect');
    return socket;
  };
  class CheckedHttpAgent extends http.Agent {
    override createConnection(connectOptions: http.ClientRequestArgs, callback?: ConnectCallback): Duplex | null | undefined {
      return connect((o, c) => super.createConnection(o, c), connectOptions, callback, false);
    }
  }
  class CheckedHttpsAgent extends https.Agent {
    override createConnection(connectOptions: https.RequestOptions, callback?: ConnectCallback): Duplex | null | undefined {
      return connect((o, c) => super.createConnection(o, c), connectOptions, callback, true);
    }
  }
  const agentOptions = { keepAlive: true, scheduling: 'lifo' as const };
  const pools = { http: new CheckedHttpAgent(agentOptions), https: new CheckedHttpsAgent(agentOptions) };
  return {
    ...pools,
    destroy() {
      pools.http.destroy();
      pools.https.destroy();
    },
  };
}

/** Destroys `socket` with a {@link CONNECT_TIMEOUT_CODE} error unless `readyEvent` comes within `timeoutMs`. */
function limitConnectTime(socket: Socket, timeoutMs: number, readyEvent: 'connect' | 'secureConnect'): void {
  const timer = setTimeout(() => {
    const error: NodeJS.ErrnoException = new Error(`No connection within ${timeoutMs} ms.`);
    error.code = CONNECT_TIMEOUT_CODE;
    socket.destroy(error);
  }, timeoutMs);
  timer.unref();
  const done = (): void => clearTimeout(timer);
  socket.once(readyEvent, done);
  socket.once('close', done);
}
