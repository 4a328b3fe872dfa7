// Caller allow-list: IPs or CIDRs, v4 and v6; an IPv4-mapped IPv6 peer matches its IPv4 entry.
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

export function parseAllowEntry(entry: string): Range | undefined {
  try {
    if (entry.includes('/')) return ipaddr.parseCIDR(entry);
    const addr = ipaddr.parse(entry);
    return [addr, addr.kind() === 'ipv4' ? 32 : 128];
  } catch {
    return undefined;
  }
}

export function isValidAllowEntry(entry: string): boolean {
  return parseAllowEntry(entry) !== undefined;
}

export function compileAllowList(entries: string[]): (address: string) => boolean {
  if (entries.length === 0) return () => true;
  const ranges = entries.map(parseAllowEntry).filter((r): r is Range => r !== undefined);
  return (address: string) => {
    let addr: ipaddr.IPv4 | ipaddr.IPv6;
    try { addr = ipaddr.process(address); } catch { return false; }
    return ranges.some(([net, bits]) => addr.kind() === net.kind() && addr.match([net, bits] as never));
  };
}
