import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors/app-error.ts';
import {
  controlsParamsOf,
  htmlTargetOf,
  resolveActions,
  resolveHeaders,
  resolveIdentity,
  resolveLocale,
  resolvePageControls,
  resolveTimezone,
} from './resolve-controls.ts';
import { resolvePageCapture } from './resolve-page.ts';
import { resolveOutput } from './resolve-style.ts';

function fieldOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) {
      return (error.details?.issues as { path: string }[] | undefined)?.[0]?.path;
    }
    throw error;
  }
  return undefined;
}

describe('resolveActions', () => {
  it('applies the default timeout and keeps the order', () => {
    expect(
      resolveActions([
        { type: 'click', selector: '#a' },
        { type: 'wait', ms: 100 },
        { type: 'scroll_to', y: 400 },
        { type: 'press', key: 'Enter' },
        { type: 'wait_for', selector: '#b', state: 'hidden', timeout_ms: 200 },
      ]),
    ).toEqual([
      { type: 'click', target: { selector: '#a' }, timeoutMs: 5000 },
      { type: 'wait', ms: 100 },
      { type: 'scroll_to', target: { x: 0, y: 400 }, timeoutMs: 5000 },
      { type: 'press', target: null, key: 'Enter', timeoutMs: 5000 },
      { type: 'wait_for', selector: '#b', state: 'hidden', timeoutMs: 200 },
    ]);
    expect(resolveActions([])).toBeUndefined();
  });

  it('names the step of a missing, doubled or blank target', () => {
    expect(fieldOf(() => resolveActions([{ type: 'wait', ms: 1 }, { type: 'hover' }]))).toBe(
      'actions[1].selector',
    );
    expect(fieldOf(() => resolveActions([{ type: 'click', selector: 'a', element: 'b' }]))).toBe(
      'actions[0].element',
    );
    expect(fieldOf(() => resolveActions([{ type: 'type', element: '  ', text: 'x' }]))).toBe(
      'actions[0].element',
    );
  });

  it('bounds all the steps together', () => {
    const long = Array.from({ length: 4 }, () => ({
      type: 'click' as const,
      selector: 'a',
      timeout_ms: 15_000,
    }));
    expect(fieldOf(() => resolveActions(long))).toBeUndefined();
    expect(fieldOf(() => resolveActions([...long, { type: 'wait', ms: 1 }]))).toBe('actions');
  });
});

describe('resolveHeaders', () => {
  it('lower-cases names and keeps values as given', () => {
    expect(resolveHeaders({ 'X-Api-Version': '2', Authorization: 'Bearer t' })).toEqual({
      'x-api-version': '2',
      authorization: 'Bearer t',
    });
  });

  it.each([
    [{ HOST: 'a' }],
    [{ 'Proxy-Foo': 'a' }],
    [{ 'sec-ch-ua': 'a' }],
    [{ 'Accept-Language': 'de' }],
    [{ 'X-A': 'a\rb' }],
    [{ 'X-A': 'a\u2028b' }],
    [{ 'X-A': 'a\u007fb' }],
    [{ 'X:A': 'a' }],
    [{ '': 'a' }],
  ])('refuses %j', (headers) => {
    expect(fieldOf(() => resolveHeaders(headers))).toMatch(/^headers\./);
  });

  it('refuses a cookie header, which would reach every site the page loads from', () => {
    expect(fieldOf(() => resolveHeaders({ Cookie: 'a=b' }))).toBe('headers.Cookie');
  });

  it('bounds the count and the bytes', () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-${i}`, 'v']));
    expect(fieldOf(() => resolveHeaders(many))).toBe('headers');
    const big = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`x-${i}`, 'v'.repeat(4000)]));
    expect(fieldOf(() => resolveHeaders(big))).toBe('headers');
  });
});

describe('locale and time zone', () => {
  it('canonicalises a language tag and refuses lists and garbage', () => {
    expect(resolveLocale('en-us')).toBe('en-US');
    expect(resolveLocale('zh-hant-tw')).toBe('zh-Hant-TW');
    expect(fieldOf(() => resolveLocale('en-US,de'))).toBe('locale');
    expect(fieldOf(() => resolveLocale('en_US'))).toBe('locale');
    expect(fieldOf(() => resolveLocale('x'))).toBe('locale');
  });

  it('accepts IANA zones and refuses others', () => {
    expect(resolveTimezone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(resolveTimezone('UTC')).toBe('UTC');
    expect(fieldOf(() => resolveTimezone('Europe/Atlantis'))).toBe('timezone');
    expect(fieldOf(() => resolveTimezone('../etc'))).toBe('timezone');
  });
});

describe('request cookies', () => {
  const url = 'https://app.example.com/dashboard';

  it('are host-only on the target by default and may be on its site', () => {
    const identity = resolveIdentity(
      {
        url,
        cookies: [
          { name: 'sid', value: '1' },
          { name: 'pref', value: 'x', domain: '.example.com' },
        ],
      },
      url,
    );
    expect(identity?.cookies?.map((cookie) => [cookie.name, cookie.domain])).toEqual([
      ['sid', 'app.example.com'],
      ['pref', '.example.com'],
    ]);
  });

  it("refuse another site's cookie, a public suffix's, and async", () => {
    expect(
      fieldOf(() => resolveIdentity({ url, cookies: [{ name: 'a', value: 'b', domain: 'bank.com' }] }, url)),
    ).toBe('cookies');
    expect(
      fieldOf(() => resolveIdentity({ url, cookies: [{ name: 'a', value: 'b', domain: '.com' }] }, url)),
    ).toBe('cookies');
    expect(
      fieldOf(() => resolveIdentity({ url, cookies: [{ name: 'a', value: 'b' }], async: true }, url)),
    ).toBe('cookies');
  });
});

describe('queued captures', () => {
  const url = 'https://example.com/';
  it('keep no headers or cookies: async, or a video (queued unless async: false)', () => {
    const headers = { 'x-a': '1' };
    expect(fieldOf(() => resolveIdentity({ url, headers, async: true }, url))).toBe('headers');
    expect(fieldOf(() => resolveIdentity({ url, headers, motion: { type: 'scroll' } }, url))).toBe('headers');
    expect(resolveIdentity({ url, headers, motion: { type: 'scroll' }, async: false }, url)).toEqual({
      headers,
    });
  });
});

describe('html', () => {
  it('is served at the in-browser URL, with css last', () => {
    const target = htmlTargetOf({ html: '<p>x</p>', css: 'p{}' });
    expect(target).toBe('http://html.vitrine.invalid/');
    expect(resolvePageControls({ html: '<p>x</p>', css: 'p{}' }, target ?? '').html).toEqual({
      body: '<p>x</p>\n<style>p{}</style>',
    });
    expect(htmlTargetOf({ url: 'https://example.com' })).toBeUndefined();
  });

  it('excludes url, site, auth profiles, and css alone', () => {
    expect(fieldOf(() => htmlTargetOf({ html: 'x', url: 'https://a.example' }))).toBe('url');
    expect(fieldOf(() => htmlTargetOf({ html: 'x', site: 'a.example' }))).toBe('site');
    expect(fieldOf(() => htmlTargetOf({ html: 'x', auth_profile_id: 'ap_x' }))).toBe('auth_profile_id');
    expect(fieldOf(() => htmlTargetOf({ css: 'p{}' }))).toBe('css');
  });
});

describe('controlsParamsOf (resolved_params and the cache key)', () => {
  const url = 'https://example.com/';
  const page = (fields: Record<string, unknown>) =>
    resolvePageCapture({ url, ...fields }, url, resolveOutput(undefined));

  it('adds nothing for a request without controls', () => {
    expect(controlsParamsOf(page({}))).toEqual({});
    expect(page({})).not.toHaveProperty('identity');
  });

  it('differs for every field that changes pixels, and never shows a secret', () => {
    const variants = [
      {},
      { locale: 'de-DE' },
      { timezone: 'Asia/Tokyo' },
      { geolocation: { latitude: 1, longitude: 2 } },
      { reduced_motion: true },
      { headers: { 'x-a': '1' } },
      { headers: { 'x-a': '2' } },
      { cookies: [{ name: 'a', value: '1' }] },
      { cookies: [{ name: 'a', value: '2' }] },
      { actions: [{ type: 'click', selector: '#a' }] },
      { actions: [{ type: 'type', selector: '#a', text: 'x' }] },
      { actions: [{ type: 'type', selector: '#a', text: 'y' }] },
      { metadata: true },
    ];
    const keys = variants.map((fields) => JSON.stringify(controlsParamsOf(page(fields))));
    expect(new Set(keys).size).toBe(variants.length);
    const shown = JSON.stringify(
      controlsParamsOf(
        page({
          headers: { authorization: 'Bearer s3cret' },
          cookies: [{ name: 'sid', value: 'hunter2' }],
          actions: [{ type: 'type', selector: '#password', text: 'correct horse' }],
        }),
      ),
    );
    expect(shown).not.toMatch(/s3cret|hunter2|correct horse/);
    const typed = (text: string) =>
      JSON.stringify(controlsParamsOf(page({ actions: [{ type: 'type', selector: '#q', text }] })));
    expect(typed('a')).not.toBe(typed('b'));
  });

  it('color_scheme is dark mode, and a contradicting dark_mode is refused', () => {
    expect(page({ color_scheme: 'dark' }).darkMode).toBe(true);
    expect(page({ color_scheme: 'light', dark_mode: false }).darkMode).toBe(false);
    expect(fieldOf(() => page({ color_scheme: 'light', dark_mode: true }))).toBe('color_scheme');
  });
});
