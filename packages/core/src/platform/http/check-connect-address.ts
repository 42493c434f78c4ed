import { lookup as dnsLookup } from 'node:dns/promises';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { assertPublicAddress } from './check-public-address.ts';

/** Which addresses an outbound connection may reach. */
export interface AddressPolicy {
  /** True lets connections reach loopback / private / link-local addresses (trusted, self-hosted setups). */
  allowPrivateNetwork: boolean;
  /**
   * Addresses or CIDR ranges (e.g. `10.0.5.7`, `10.0.0.0/8`, `fd00::/8`) allowed even when private,
   * e.g. an internal object store. Empty by default.
   */
  allowedAddresses?: readonly string[];
}

/** Resolves a host name to all its addresses (default: `dns.lookup` with `all`, in resolver order). */
export type ResolveHost = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Throws unless `address` may be connected to under `policy`: any address when private networks are
 * allowed, else public unicast ones (check-public-address.ts) and those in `policy.allowedAddresses`.
 * @param address a literal IPv4 or IPv6 address (brackets allowed).
 * @param host the name the caller gave, named in the message instead of the raw address.
 * @throws AppError `address_not_allowed` (param `audio`).
 */
export function assertAllowedAddress(address: string, host: string, policy: AddressPolicy): void {
  if (policy.allowPrivateNetwork) return;
  if (isExplicitlyAllowed(address, policy.allowedAddresses ?? [])) return;
  assertPublicAddress(address, host);
}

/**
 * A `lookup` for `net.connect` / `tls.connect` that resolves the host afresh and refuses the
 * connection unless EVERY address passes {@link assertAllowedAddress}. The socket then connects
 * only to the addresses this lookup checked, so a name that answers a public address to one check
 * and a private one to the connection (DNS rebinding) cannot slip through: the check and the
 * connection use the same answer. Handles `all: true` (happy eyeballs) and a requested family.
 * @param resolve the resolver (tests inject one); defaults to the system resolver.
 * @throws through the callback: AppError `address_not_allowed`; the resolver's error (ENOTFOUND,
 *   EAI_AGAIN, …); an ENOTFOUND error when no address has the requested family.
 */
export function createCheckedLookup(policy: AddressPolicy, resolve: ResolveHost = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    const fail = (error: unknown): void => callback(error as NodeJS.ErrnoException, '', 0);
    resolve(hostname).then((addresses) => {
      let usable: LookupAddress[];
      try {
        for (const entry of addresses) assertAllowedAddress(entry.address, hostname, policy);
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        usable = wanted === 0 ? addresses : addresses.filter((entry) => entry.family === wanted);
        if (usable[0] === undefined) throw notFound(hostname);
      } catch (error) {
        fail(error);
        return;
      }
      if (options.all === true) callback(null, usable);
      else callback(null, usable[0].address, usable[0].family);
    }, fail);
  };
}

function notFound(hostname: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
  error.code = 'ENOTFOUND';
  error.syscall = 'getaddrinfo';
  return error;
}

function isExplicitlyAllowed(address: string, allowed: readonly string[]): boolean {
  if (allowed.length === 0) return false;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, '')); // IPv4-mapped IPv6 becomes IPv4
  } catch {
    return false;
  }
  return allowed.some((entry) => {
    const [base, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : [ipaddr.process(entry), undefined];
    if (base.kind() !== parsed.kind()) return false;
    const prefix = bits ?? (base.kind() === 'ipv4' ? 32 : 128);
    return parsed.match(base, prefix);
  });
}
