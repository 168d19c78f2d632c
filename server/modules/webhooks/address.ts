/**
 * Where webhooks may go (issue 13 item 5): not to loopback, private, link-local, unique-local,
 * shared (CGNAT), multicast, reserved or unspecified addresses unless WEBHOOK_ALLOW_PRIVATE, so an
 * endpoint cannot make the portal reach into its own network. Host names are checked by the
 * `lookup` the request connects with: the address checked is the address used (no DNS rebinding).
 */
import dns from 'node:dns';
import net from 'node:net';
import type { LookupFunction } from 'node:net';

const REFUSED = new net.BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) REFUSED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) REFUSED.addSubnet(network, prefix, 'ipv6');

/** Whether the address is one a webhook may not reach without the setting. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return REFUSED.check(mapped[1], 'ipv4');
  const family = net.isIP(address);
  if (family === 0) return true; // not an address: refuse rather than guess
  return REFUSED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const PRIVATE_REFUSAL = 'is a loopback or private address; webhooks go there only with WEBHOOK_ALLOW_PRIVATE=true';

/** A refusal for the URL's host as written (an address, or localhost), or null: names are checked when connecting. */
export function hostRefusal(url: URL, allowPrivate: boolean): string | null {
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost')) return `${host} ${PRIVATE_REFUSAL}`;
  if (net.isIP(host) && isPrivateAddress(host)) return `${host} ${PRIVATE_REFUSAL}`;
  return null;
}

/** dns.lookup that refuses private addresses (for http.request's `lookup`). */
export const publicLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((a) => isPrivateAddress(a.address));
    if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, which ${PRIVATE_REFUSAL}`), { code: 'EPRIVATE' }), '', 0);
    if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
};
