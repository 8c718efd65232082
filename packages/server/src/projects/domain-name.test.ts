import { describe, expect, it } from 'vitest';
import { normalizeDomain } from './domain-name.ts';

describe('normalizeDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM', 'example.com'],
    ['https://shop.example.com/pricing?x=1', 'shop.example.com'],
    ['example.com.', 'example.com'],
    ['  docs.example.org ', 'docs.example.org'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['Intranet.Local:8080', 'intranet.local:8080'],
    ['http://intranet.local:80/', 'intranet.local'],
    ['https://shop.example.com:443/x', 'shop.example.com'],
    ['127.0.0.2:4321', '127.0.0.2:4321'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  it.each([
    '',
    'localhost',
    'not a domain',
    'ftp://example.com',
    'exa_mple.com',
    '-bad.example.com',
    `${'a'.repeat(64)}.com`,
  ])('refuses %j naming the field', (input) => {
    expect(() => normalizeDomain(input)).toThrow(/domain/);
  });
});
