import { isIP } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { assertAllowedAddress, createCheckedLookup } from './check-connect-address.ts';
import type { AddressPolicy, ResolveHost } from './check-connect-address.ts';

export interface OutboundAgentOptions {
  /**
   * The SSRF rules every connection of the agent must pass (check-connect-address.ts). Absent for
   * endpoints the operator configured (LLM, remote ASR, model releases): those are usually local,
   * so they are not checked, as before.
   */
  policy?: AddressPolicy;
  /** Time in ms allowed for each TCP (and TLS) connection; default 10 000. */
  connectTimeoutMs?: number;
  /** Host resolver for the checked lookup (tests inject one to play DNS rebinding). */
  resolve?: ResolveHost;
}

/** Error code of the error undici raises when no connection is made within `connectTimeoutMs`. */
export const CONNECT_TIMEOUT_CODE = 'UND_ERR_CONNECT_TIMEOUT';

/**
 * The undici Agent all outbound HTTP of the service goes through (downloads, webhooks, remote ASR,
 * the LLM client, model installs). With a `policy`, EVERY connection it opens, hence every
 * redirect hop and every retry, is checked when it is made: a host name through the checked DNS
 * lookup (all its addresses, the socket then uses exactly those), a literal IP address (which
 * `net.connect` never looks up) before connecting. Checking at connect time rather than before the
 * request is what closes redirects to private addresses and DNS rebinding.
 * Keep-alive connections are reused per origin; each one was checked when it was opened.
 * Close it (`agent.close()`) when it is no longer used, or let idle sockets time out.
 * @throws through requests: AppError `address_not_allowed` for a refused address, the resolver's
 *   errors, an error with code {@link CONNECT_TIMEOUT_CODE} when connecting takes too long.
 */
export function createOutboundAgent(options: OutboundAgentOptions = {}): Agent {
  const timeout = options.connectTimeoutMs ?? 10_000;
  const { policy } = options;
  if (policy === undefined) return new Agent({ connect: { timeout } });
  const connector = buildConnector({ timeout, lookup: createCheckedLookup(policy, options.resolve) });
  return new Agent({
    connect: (connectOptions, callback) => {
      const host = connectOptions.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) !== 0) {
        try {
          assertAllowedAddress(host, host, policy);
        } catch (error) {
          callback(error as Error, null);
          return;
        }
      }
      connector(connectOptions, callback);
    },
  });
}
