import { describe, expect, it } from 'vitest';
import { displayPrefix, generateApiKey, hashApiKey, parseApiKey } from './api-key-format.ts';

describe('API key format', () => {
  it('generates typed keys with 32 random characters and a checksum', () => {
    const live = generateApiKey('live');
    expect(live).toMatch(/^vt_live_[0-9A-Za-z]{38}$/);
    expect(generateApiKey('test')).toMatch(/^vt_test_[0-9A-Za-z]{38}$/);
    expect(parseApiKey(live)).toEqual({ mode: 'live' });
    expect(new Set(Array.from({ length: 200 }, () => generateApiKey('live'))).size).toBe(200);
  });

  it('rejects a typo anywhere, a wrong prefix and junk', () => {
    const key = generateApiKey('live');
    for (let i = 8; i < key.length; i++) {
      const swapped = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
      expect(parseApiKey(swapped), `position ${i}`).toBeNull();
    }
    expect(parseApiKey(key.replace('vt_live_', 'vt_prod_'))).toBeNull();
    expect(parseApiKey(`${key}x`)).toBeNull();
    expect(parseApiKey('')).toBeNull();
    expect(parseApiKey(`vt_live_${'\u0000'.repeat(38)}`)).toBeNull();
  });

  it('hashes with SHA-256 and shows only a prefix', () => {
    const key = generateApiKey('test');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(displayPrefix(key)).toBe(`${key.slice(0, 14)}…`);
  });
});
