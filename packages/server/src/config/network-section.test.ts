import { describe, expect, it } from 'vitest';
import { networkSection } from './network-section.ts';

describe('network config section', () => {
  const { allowTargets, allowedPorts } = networkSection.variables;

  it('defaults to no allow-listed targets and ports 80 and 443', () => {
    expect(allowTargets.schema.parse(allowTargets.defaultText)).toEqual([]);
    expect(allowedPorts.schema.parse(allowedPorts.defaultText)).toEqual([80, 443]);
  });

  it('parses comma lists of hosts, IPs, CIDRs and ports', () => {
    expect(allowTargets.schema.parse(' intranet.example, 127.0.0.2 ,10.0.0.0/8,')).toEqual([
      'intranet.example',
      '127.0.0.2',
      '10.0.0.0/8',
    ]);
    expect(allowedPorts.schema.parse('80, 443,8080')).toEqual([80, 443, 8080]);
  });

  it('rejects invalid entries', () => {
    expect(allowTargets.schema.safeParse('10.0.0.0/40').success).toBe(false);
    expect(allowTargets.schema.safeParse('http://x').success).toBe(false);
    expect(allowedPorts.schema.safeParse('80,70000').success).toBe(false);
    expect(allowedPorts.schema.safeParse('http').success).toBe(false);
  });
});
