// Caller allow-list: IPs or CIDRs, v4 and v6; an IPv4-mapped IPv6 peer matches its IPv4 entry.
import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

function parseAllowEntry(entry: string): Range | undefined {
  try {
    const [addr, bits] = entry.includes('/') ? ipaddr.parseCIDR(entry) : ((a) => [a, a.kind() === 'ipv4' ? 32 : 128] as Range)(ipaddr.parse(entry));
    // `::ffff:127.0.0.1` (and `::ffff:10.0.0.0/104`) are IPv4 addresses written in IPv6: peers
    // are normalised to IPv4 (ipaddr.process), so entries are too.
    if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [addr, bits];
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
    try {
      addr = ipaddr.process(address);
    } catch {
      return false;
    }
    return ranges.some(([net, bits]) => addr.kind() === net.kind() && addr.match([net, bits] as never));
  };
}
