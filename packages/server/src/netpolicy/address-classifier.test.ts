import { describe, expect, it } from 'vitest';
import { classifyAddress, createAllowList, parseAllowTarget, parseIpLiteral } from './address-classifier.ts';

/** The host part WHATWG URL produces, as the policy sees it. */
function urlHost(input: string): string {
  const hostname = new URL(input).hostname;
  return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
}

describe('classifyAddress', () => {
  const denied: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    [urlHost('http://127.1/'), 'loopback'],
    [urlHost('http://0x7f.1/'), 'loopback'],
    [urlHost('http://2130706433/'), 'loopback'],
    [urlHost('http://0177.0.0.1/'), 'loopback'],
    [urlHost('http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/'), 'loopback'],
    [urlHost('http://[::ffff:127.0.0.1]/'), 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['::1', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:a01:203', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    [urlHost('http://0/'), 'unspecified'],
    ['::', 'unspecified'],
    ['::7f00:1', 'ipv4-compatible'],
    ['::a00:1', 'ipv4-compatible'],
    ['64:ff9b::7f00:1', 'rfc6052'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:7f00:1::1', '6to4'],
    ['2002:c0a8:101::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['4000::1', 'not-global-unicast'],
    ['not-an-ip', 'invalid'],
    ['0x7f.1', 'invalid'],
    ['127.1', 'invalid'],
  ];
  it.each(denied)('denies %s (%s)', (address, range) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.range).toBe(range);
  });

  const allowed = ['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700::1111', '2a00:1450:4001:80b::200e'];
  it.each(allowed)('allows global unicast %s', (address) => {
    expect(classifyAddress(address)).toMatchObject({ allowed: true, range: 'unicast' });
  });

  it('unmaps IPv4-mapped IPv6 before deciding', () => {
    expect(classifyAddress('::ffff:8.8.8.8')).toEqual({
      allowed: true,
      address: '8.8.8.8',
      range: 'unicast',
    });
    expect(parseIpLiteral('::ffff:7f00:1')?.toString()).toBe('127.0.0.1');
  });

  it('opens allow-listed IPs and CIDRs, and nothing next to them', () => {
    const allowList = createAllowList(['127.0.0.2', '10.1.0.0/16', 'fd00::/8', '::ffff:192.168.5.0/120']);
    expect(classifyAddress('127.0.0.2', allowList)).toMatchObject({ allowed: true, range: 'allow-listed' });
    expect(classifyAddress('::ffff:127.0.0.2', allowList)).toMatchObject({ allowed: true });
    expect(classifyAddress('127.0.0.1', allowList).allowed).toBe(false);
    expect(classifyAddress('10.1.200.3', allowList).allowed).toBe(true);
    expect(classifyAddress('10.2.0.1', allowList).allowed).toBe(false);
    expect(classifyAddress('fd00:ec2::254', allowList).allowed).toBe(true);
    expect(classifyAddress('192.168.5.9', allowList).allowed).toBe(true);
    expect(classifyAddress('192.168.6.9', allowList).allowed).toBe(false);
  });
});

describe('parseAllowTarget', () => {
  it('accepts hosts, IPs and CIDRs', () => {
    expect(parseAllowTarget(' Intranet.Example. ')).toEqual({ kind: 'host', host: 'intranet.example' });
    expect(parseAllowTarget('127.0.0.2')).toMatchObject({ kind: 'cidr' });
    expect(parseAllowTarget('[::1]')).toMatchObject({ kind: 'cidr' });
    expect(parseAllowTarget('10.0.0.0/8')).toMatchObject({ kind: 'cidr' });
  });

  it.each(['', '10.0.0.0/33', '10.0.0.0/x', '0x7f.1', '127.1', 'a b', 'http://x', '::ffff:0:0/80'])(
    'rejects %j',
    (entry) => {
      expect(parseAllowTarget(entry)).toHaveProperty('error');
    },
  );
});
