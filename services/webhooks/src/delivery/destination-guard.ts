// Address checks that need DNS: when a URL is set (every address the name resolves to must be
// public) and again at each connection, through a `lookup` that refuses non-public answers, so a
// name re-pointed at our own network after it was accepted (DNS rebinding) is still refused.
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Environment } from '@bo/contracts';
import { ipLiteralOf, isNonPublicAddress, mustGuardAddresses, urlShapeProblem, type UrlPolicy } from '../domain/url-policy.ts';

/** Every problem with a URL an operator endpoint is set to; undefined when acceptable. */
export async function webhookUrlProblem(raw: string, environment: Environment, policy: UrlPolicy): Promise<string | undefined> {
  const shape = urlShapeProblem(raw, environment, policy);
  if (shape) return shape;
  const url = new URL(raw);
  if (!mustGuardAddresses(environment, policy) || ipLiteralOf(url)) return undefined;
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(url.hostname, { all: true, verbatim: true });
  } catch {
    return `host ${url.hostname} could not be resolved`;
  }
  const bad = addresses.find((a) => isNonPublicAddress(a.address));
  if (addresses.length === 0) return `host ${url.hostname} could not be resolved`;
  if (bad) return `must not point to a private, loopback or link-local address (${url.hostname} resolves to ${bad.address})`;
  return undefined;
}

export class NonPublicAddressError extends Error {
  readonly code = 'ENONPUBLIC';
}

/** A dns.lookup for http.request that fails when any address of the name is non-public. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) {
      (callback as (e: Error) => void)(err);
      return;
    }
    const list = addresses as dns.LookupAddress[];
    const bad = list.find((a) => isNonPublicAddress(a.address));
    if (bad || list.length === 0) {
      const why = bad ? `${hostname} resolves to the non-public address ${bad.address}` : `${hostname} has no address`;
      (callback as (e: Error) => void)(new NonPublicAddressError(why));
      return;
    }
    if (options.all) (callback as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    else (callback as (e: null, a: string, f: number) => void)(null, list[0]!.address, list[0]!.family);
  });
};
