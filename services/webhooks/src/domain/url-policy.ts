// Which webhook URLs we accept and which addresses we will connect to. Production URLs must be
// https, and must not lead to our own network (SSRF): private, loopback, link-local, unique-local,
// unspecified, multicast and reserved ranges are refused unless configuration allows them.
// Sandbox URLs may use http and any address (they are set by our team for tests).
import { BlockList, isIP } from 'node:net';
import type { Environment } from '@bo/contracts';

export interface UrlPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

const nonPublic = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  nonPublic.addSubnet(net, bits, 'ipv6');

/** IPv4 embedded in an IPv6 address that routes to it (mapped, compatible, NAT64). */
function embeddedIpv4(v6: string): string | undefined {
  const m = /^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(v6);
  if (m) return m[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(v6);
  if (hex) {
    const hi = parseInt(hex[1]!, 16),
      lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return undefined;
}

/** True for any address a production webhook must not reach. Unparseable input counts as non-public. */
export function isNonPublicAddress(address: string): boolean {
  const a = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(a);
  if (family === 4) return nonPublic.check(a, 'ipv4');
  if (family === 6) {
    const v4 = embeddedIpv4(a);
    if (v4 !== undefined) return isNonPublicAddress(v4);
    return nonPublic.check(a, 'ipv6');
  }
  return true;
}

/** Whether the addresses behind a URL must be checked before connecting. */
export function mustGuardAddresses(environment: Environment, policy: UrlPolicy): boolean {
  return environment === 'production' && !policy.allowPrivate;
}

/** The URL's host as an IP literal, or undefined for a name. */
export function ipLiteralOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : undefined;
}

/** Shape rules (everything but DNS); returns the problem or undefined. */
export function urlShapeProblem(raw: string, environment: Environment, policy: UrlPolicy): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must use https (or http where allowed)';
  if (url.protocol === 'http:' && environment === 'production' && !policy.allowHttp) return 'production webhook URLs must use https';
  if (url.username || url.password) return 'must not contain credentials';
  if (!url.hostname) return 'must name a host';
  const literal = ipLiteralOf(url);
  if (literal && mustGuardAddresses(environment, policy) && isNonPublicAddress(literal)) {
    return `must not point to a private, loopback or link-local address (${literal})`;
  }
  return undefined;
}
