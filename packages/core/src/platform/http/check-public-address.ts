import ipaddr from 'ipaddr.js';
import { AppError } from '../errors/app-error.ts';

/**
 * Which network addresses a link may lead to (guard against server-side request forgery).
 *
 * Rule: only addresses ipaddr.js classifies as `unicast` are public. Everything else is refused:
 * loopback, RFC 1918 private, link-local (incl. the cloud metadata address 169.254.169.254),
 * carrier-grade NAT 100.64/10, unspecified 0/8 and ::, multicast, broadcast, reserved and
 * documentation ranges, IPv6 unique-local fc00::/7, link-local fe80::/10, site-local fec0::/10,
 * and translation/tunnel ranges (NAT64 64:ff9b::/96, 6to4, Teredo) that can hide an IPv4 address.
 * IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d) IPv6 forms are judged by the IPv4
 * address they carry.
 */

/** Extra ranges refused even though ipaddr.js calls them unicast. */
const EXTRA_REFUSED_V4: ReadonlyArray<[ipaddr.IPv4, number]> = [
  [ipaddr.IPv4.parse('169.254.169.254'), 32], // cloud metadata (already link-local; kept explicit)
  [ipaddr.IPv4.parse('100.64.0.0'), 10], // carrier-grade NAT (already 'carrierGradeNat')
];

/**
 * True when `address` (a literal IPv4 or IPv6 address, optionally in [brackets] or with a %zone)
 * is a public unicast address a download may connect to. Unparseable input is not public.
 */
export function isPublicAddress(address: string): boolean {
  const parsed = parseAddress(address);
  if (parsed === null) return false;
  if (parsed.kind() === 'ipv6') return isPublicV6(parsed as ipaddr.IPv6);
  return isPublicV4(parsed as ipaddr.IPv4);
}

/**
 * Throws unless `address` is public (see {@link isPublicAddress}).
 * @param host the host name the user gave, used in the message instead of the raw address.
 * @throws AppError `address_not_allowed` (param `audio`) for loopback / private / link-local /
 *   multicast / unspecified / metadata / reserved addresses, IPv4 and IPv6 alike.
 */
export function assertPublicAddress(address: string, host?: string): void {
  if (isPublicAddress(address)) return;
  const where = host !== undefined && host !== address ? `${host} (${address})` : address;
  throw new AppError(
    'address_not_allowed',
    `The link points to a private or local network address (${where}); only public internet addresses can be fetched.`,
    { param: 'audio' },
  );
}

function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  let text = address.trim();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // Only canonical dotted-quad IPv4 or valid IPv6; ipaddr.js would otherwise accept "127.1" style too,
  // which is fine for refusal but we keep the parse strict so odd forms are refused outright.
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

function isPublicV4(address: ipaddr.IPv4): boolean {
  if (address.range() !== 'unicast') return false;
  return !EXTRA_REFUSED_V4.some((range) => address.match(range));
}

function isPublicV6(address: ipaddr.IPv6): boolean {
  if (address.isIPv4MappedAddress()) return isPublicV4(address.toIPv4Address());
  if (isIPv4Compatible(address)) return isPublicV4(embeddedIPv4(address));
  return address.range() === 'unicast';
}

/** The IPv4 address in the last 32 bits. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const high = address.parts[6] ?? 0;
  const low = address.parts[7] ?? 0;
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

/** ::a.b.c.d (deprecated IPv4-compatible form, RFC 4291 2.5.5.1): first 96 bits zero. */
function isIPv4Compatible(address: ipaddr.IPv6): boolean {
  return address.parts.slice(0, 6).every((part) => part === 0);
}
