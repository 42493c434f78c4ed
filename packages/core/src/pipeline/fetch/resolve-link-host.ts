import { lookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { assertPublicAddress } from './check-public-address.ts';

/** Which addresses a link may connect to. */
export interface AddressPolicy {
  /** True lets links reach loopback / private / link-local addresses (trusted, self-hosted setups). */
  allowPrivateNetwork: boolean;
  /**
   * Addresses or CIDR ranges (e.g. `10.0.5.7`, `10.0.0.0/8`, `fd00::/8`) allowed even when private,
   * e.g. an internal object store. Empty by default.
   */
  allowedAddresses?: readonly string[];
}

/**
 * Resolves a link's host name to every address it has and checks each one, so that the
 * connection can then be pinned to checked addresses (no second DNS answer, no DNS rebinding).
 * @param hostname `URL.hostname`; IPv6 literals may keep their [brackets].
 * @returns all addresses (at least one), in resolver order.
 * @throws AppError `address_not_allowed` when any address is non-public and the policy does not allow it;
 *   the resolver's own error (ENOTFOUND, EAI_AGAIN, …) when the name cannot be resolved.
 */
export async function resolveLinkHost(hostname: string, policy: AddressPolicy): Promise<LookupAddress[]> {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const family = isIP(host);
  const addresses = family !== 0 ? [{ address: host, family }] : await lookup(host, { all: true, verbatim: true });
  if (!policy.allowPrivateNetwork) {
    for (const entry of addresses) {
      if (!isExplicitlyAllowed(entry.address, policy.allowedAddresses ?? [])) assertPublicAddress(entry.address, host);
    }
  }
  return addresses;
}

/**
 * A `lookup` for node:http/https/net that answers only with the given, already checked addresses.
 * Handles both `all: true` (happy eyeballs) and single-address calls, and a requested family.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = wanted === 0 ? [...addresses] : addresses.filter((entry) => entry.family === wanted);
    const first = usable[0];
    if (first === undefined) {
      const error: NodeJS.ErrnoException = new Error('No checked address of the requested family');
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all === true) {
      callback(null, usable);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

function isExplicitlyAllowed(address: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return false;
  const parsed = ipaddr.process(address); // IPv4-mapped IPv6 becomes IPv4
  return allowed.some((entry) => {
    const [base, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), undefined];
    if (base.kind() !== parsed.kind()) return false;
    const prefix = bits ?? (base.kind() === 'ipv4' ? 32 : 128);
    return parsed.match(base, prefix);
  });
}
