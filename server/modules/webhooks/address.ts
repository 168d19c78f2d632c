/**
 * Where webhooks may go (issue 13 item 5, issue 30 items 5 and 6): only to public unicast addresses unless
 * WEBHOOK_ALLOW_PRIVATE, so an endpoint cannot make the portal reach into its own network. ipaddr.js classifies
 * (its `range()` knows the special-purpose registries); an IPv6 address that carries an IPv4 one by a standard
 * translation (IPv4-mapped, SIIT, NAT64's well-known prefix, 6to4) is judged by the IPv4 it carries. Host names are
 * checked by the `lookup` the request connects with: the address checked is the address used (no DNS rebinding).
 * Refusals never say what a name resolves to: the delivery log would otherwise map the portal's network.
 */
import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/** NAT64's well-known prefix (RFC 6052): the IPv4 address is the last 32 bits. 64:ff9b:1::/48 is local use. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');
/** The rest of ::/8 (IPv4-compatible `::a.b.c.d`, deprecated, among it) is no destination. */
const RESERVED_ZERO = ipaddr.parseCIDR('::/8');

/** The IPv4 address an IPv6 address carries by a standard translation, or null. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = address.toByteArray();
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:a.b.c.d
    case 'rfc6145': // ::ffff:0:a.b.c.d
      return new ipaddr.IPv4(bytes.slice(12));
    case 'rfc6052':
      return address.match(NAT64_WELL_KNOWN) ? new ipaddr.IPv4(bytes.slice(12)) : null;
    case '6to4': // 2002:aabb:ccdd::/48
      return new ipaddr.IPv4(bytes.slice(2, 6));
    default:
      return null;
  }
}

/** Whether the address is one a webhook may not reach without the setting: anything but public unicast. */
export function isPrivateAddress(address: string): boolean {
  // Only the canonical forms that URLs and dns.lookup give; anything else is refused rather than guessed at.
  if (net.isIP(address) === 0) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() !== 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  const carried = embeddedIPv4(v6);
  if (carried) return carried.range() !== 'unicast';
  if (v6.match(RESERVED_ZERO)) return true;
  return v6.range() !== 'unicast';
}

const PRIVATE_REFUSAL = 'a loopback, private or reserved address; webhooks go there only with WEBHOOK_ALLOW_PRIVATE=true';

/** A refusal for the URL's host as written (an address, or localhost), or null: names are checked when connecting. */
export function hostRefusal(url: URL, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost')) return `${host} is ${PRIVATE_REFUSAL}`;
  if (net.isIP(host) && isPrivateAddress(host)) return `${host} is ${PRIVATE_REFUSAL}`;
  return null;
}

/** The refusal of a name that resolves to a refused address: which one is not told. */
const nameRefusal = (hostname: string) => `${hostname} resolves to ${PRIVATE_REFUSAL}`;

/**
 * The refusal for a URL whose host name resolves (now) to a refused address, or null (also when it does not
 * resolve: it may later, and the connection checks it again then).
 */
export async function resolvedRefusal(url: URL, allowPrivate: boolean): Promise<string | null> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (allowPrivate || net.isIP(host)) return null;
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  return addresses.some((a) => isPrivateAddress(a.address)) ? nameRefusal(host) : null;
}

/** dns.lookup that refuses private addresses (for http.request's `lookup`). */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    if (addresses.some((a) => isPrivateAddress(a.address))) {
      return callback(Object.assign(new Error(nameRefusal(hostname)), { code: 'EPRIVATE' }), '', 0);
    }
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
