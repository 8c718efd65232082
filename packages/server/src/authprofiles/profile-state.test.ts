import { describe, expect, it } from 'vitest';
import { cookiesExpireAt, domainCovers, mergeProfileInputs, profileDomain } from './profile-state.ts';

describe('auth profile state', () => {
  it('covers the domain and its subdomains only', () => {
    expect(domainCovers('app.example.com', 'app.example.com')).toBe(true);
    expect(domainCovers('app.example.com', 'eu.app.example.com')).toBe(true);
    expect(domainCovers('app.example.com', 'APP.example.com.')).toBe(true);
    expect(domainCovers('app.example.com', 'example.com')).toBe(false);
    expect(domainCovers('app.example.com', 'evilapp.example.com')).toBe(false);
    expect(domainCovers('app.example.com', 'app.example.com.evil.test')).toBe(false);
    expect(domainCovers('127.0.0.2', '127.0.0.2')).toBe(true);
    expect(domainCovers('0.0.2', '127.0.0.2')).toBe(false);
  });

  it('normalises the domain and refuses public suffixes and single labels', () => {
    expect(profileDomain('https://App.Example.com:8443/login')).toBe('app.example.com');
    expect(profileDomain('127.0.0.2')).toBe('127.0.0.2');
    for (const refused of ['com', 'co.uk', 'github.io', 'blogspot.com', 'localhost']) {
      expect(() => profileDomain(refused), refused).toThrow(/public suffix/);
    }
    expect(() => profileDomain('not a domain')).toThrow();
  });

  it('parses a Cookie header without decoding values, on the domain and its subdomains', () => {
    const { state } = mergeProfileInputs('example.com', { cookie_header: 'Cookie: a=%41b; b="q"' });
    expect(state.cookies.map((c) => [c.name, c.value, c.domain, c.path])).toEqual([
      ['a', '%41b', '.example.com', '/'],
      ['b', '"q"', '.example.com', '/'],
    ]);
    expect(() => mergeProfileInputs('example.com', { cookie_header: '=x' })).toThrow(/needs a name/);
  });

  it('keeps one cookie per (name, domain, path), the last source winning', () => {
    const { state, warnings } = mergeProfileInputs('example.com', {
      cookie_header: 'sid=1',
      storage_state: { cookies: [{ name: 'sid', value: '2', domain: 'example.com' }] },
      cookies: [
        { name: 'sid', value: '3', domain: '.example.com', path: '/' },
        { name: 'sid', value: 'other-path', path: '/admin' },
        { name: 'lax', value: 'v', sameSite: 'None' },
      ],
    });
    expect(state.cookies.filter((c) => c.name === 'sid').map((c) => c.value)).toEqual(['3', 'other-path']);
    expect(state.cookies.find((c) => c.name === 'lax')?.sameSite).toBe('Lax');
    expect(warnings).toEqual(['Cookie lax: sameSite None needs secure; stored as Lax']);
  });

  it('knows when the last cookie expires', () => {
    const cookie = {
      name: 'a',
      value: '',
      domain: 'x.com',
      path: '/',
      httpOnly: false,
      secure: false,
      sameSite: 'Lax' as const,
    };
    expect(cookiesExpireAt({ cookies: [], origins: [] })).toBeNull();
    expect(
      cookiesExpireAt({
        cookies: [
          { ...cookie, expires: -1 },
          { ...cookie, expires: 10 },
        ],
        origins: [],
      }),
    ).toBeNull();
    expect(
      cookiesExpireAt({
        cookies: [
          { ...cookie, expires: 10 },
          { ...cookie, expires: 20 },
        ],
        origins: [],
      }),
    ).toBe(new Date(20_000).toISOString());
  });
});
