import ipaddr from 'ipaddr.js';

type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** Why an address was accepted or refused; `range` names the matching block for logs. */
export type AddressVerdict =
  | { allowed: true; address: string; range: 'unicast' | 'allow-listed' }
  | { allowed: false; address: string; range: string };

/**
 * Blocks that `ipaddr.js` labels `unicast` or misses, or whose embedded IPv4 address could reach
 * a private network through a translator (security.md section 1, item 4). Checked after
 * IPv4-mapped addresses were unmapped.
 */
const EXPLICIT_DENIES: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0/8', 'this-network'],
  ['100.64.0.0/10', 'carrier-grade-nat'],
  ['192.0.0.0/24', 'ietf-protocol-assignments'],
  ['198.18.0.0/15', 'benchmarking'],
  ['240.0.0.0/4', 'reserved'],
  ['::/128', 'unspecified'],
  ['::/96', 'ipv4-compatible'],
  ['64:ff9b::/96', 'nat64'],
  ['64:ff9b:1::/48', 'nat64-local'],
  ['2002::/16', '6to4'],
  ['2001::/32', 'teredo'],
  ['100::/64', 'discard'],
];

/** IPv6 global unicast is 2000::/3 (RFC 4291); everything outside it is never a public host. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const PARSED_DENIES = EXPLICIT_DENIES.map(([cidr, name]) => ({ cidr: ipaddr.parseCIDR(cidr), name }));

/**
 * Parses an IP literal strictly: dotted-quad decimal IPv4 or IPv6 (brackets stripped). Loose forms
 * such as `0x7f.1` are refused here because they only reach this point when no URL parser
 * normalised them first. IPv4-mapped IPv6 addresses are returned as IPv4.
 */
export function parseIpLiteral(input: string): IpAddress | undefined {
  const text = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  let parsed: IpAddress;
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) parsed = ipaddr.IPv4.parse(text);
  else if (text.includes(':') && ipaddr.IPv6.isValid(text)) parsed = ipaddr.IPv6.parse(text);
  else return undefined;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed;
}

function matchesCidr(address: IpAddress, cidr: [IpAddress, number]): boolean {
  return address.kind() === cidr[0].kind() && address.match(cidr);
}

/**
 * The addresses and host names an operator opened with `VITRINE_ALLOW_TARGETS`: any port on them
 * is reachable even when the address is private.
 */
export interface AllowList {
  /** Lower-case host names without a trailing dot. */
  readonly hosts: ReadonlySet<string>;
  readonly cidrs: ReadonlyArray<[IpAddress, number]>;
}

/** One parsed `VITRINE_ALLOW_TARGETS` entry, or an error message naming the accepted forms. */
export function parseAllowTarget(
  entry: string,
): { kind: 'cidr'; cidr: [IpAddress, number] } | { kind: 'host'; host: string } | { error: string } {
  const text = entry.trim().toLowerCase();
  if (text === '') return { error: 'empty entry' };
  if (text.includes('/')) {
    const [base = '', bits = ''] = text.split('/');
    const address = parseIpLiteral(base);
    const prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
    // An IPv4-mapped block (::ffff:a.b.c.d/n) was unmapped by parseIpLiteral: shift the prefix.
    const bitsOf =
      address !== undefined && address.kind() === 'ipv4' && base.includes(':') ? prefix - 96 : prefix;
    if (address === undefined || !(bitsOf >= 0 && bitsOf <= (address.kind() === 'ipv4' ? 32 : 128))) {
      return { error: `${entry} is not a valid CIDR block` };
    }
    return { kind: 'cidr', cidr: [address, bitsOf] };
  }
  const address = parseIpLiteral(text);
  if (address !== undefined) {
    return { kind: 'cidr', cidr: [address, address.kind() === 'ipv4' ? 32 : 128] };
  }
  const host = text.replace(/\.+$/, '');
  if (
    !/^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/.test(
      host,
    )
  ) {
    return { error: `${entry} is not a host name, IP address or CIDR block` };
  }
  if (/^[\d.]+$/.test(host) || /^0x/.test(host)) {
    return { error: `${entry} is not a dotted-quad IPv4 address` };
  }
  return { kind: 'host', host };
}

/** Builds the allow list from config entries; throws on an invalid entry (config validated it). */
export function createAllowList(entries: readonly string[]): AllowList {
  const hosts = new Set<string>();
  const cidrs: [IpAddress, number][] = [];
  for (const entry of entries) {
    const parsed = parseAllowTarget(entry);
    if ('error' in parsed) throw new Error(`VITRINE_ALLOW_TARGETS: ${parsed.error}`);
    if (parsed.kind === 'host') hosts.add(parsed.host);
    else cidrs.push(parsed.cidr);
  }
  return { hosts, cidrs };
}

/** True when the host name (any case, trailing dot ignored) was opened by the operator. */
export function isAllowListedHost(host: string, allowList: AllowList): boolean {
  return allowList.hosts.has(host.toLowerCase().replace(/\.+$/, ''));
}

/**
 * Classifies one IP address for outbound use: only global unicast passes, unless the operator
 * allow-listed it. Uses `ipaddr.js` ranges plus the explicit denies, never string checks, so
 * every textual form of an address gets the same answer.
 */
export function classifyAddress(input: string, allowList?: AllowList): AddressVerdict {
  const address = parseIpLiteral(input);
  if (address === undefined) return { allowed: false, address: input, range: 'invalid' };
  const normalized = address.toString();
  if (allowList?.cidrs.some((cidr) => matchesCidr(address, cidr))) {
    return { allowed: true, address: normalized, range: 'allow-listed' };
  }
  const range = address.range();
  if (range !== 'unicast') return { allowed: false, address: normalized, range };
  const explicit = PARSED_DENIES.find((deny) => matchesCidr(address, deny.cidr));
  if (explicit) return { allowed: false, address: normalized, range: explicit.name };
  if (address.kind() === 'ipv6' && !address.match(IPV6_GLOBAL_UNICAST)) {
    return { allowed: false, address: normalized, range: 'not-global-unicast' };
  }
  return { allowed: true, address: normalized, range: 'unicast' };
}
