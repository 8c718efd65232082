import { describe, expect, it } from 'vitest';
import { loadBlockLists } from './block-lists.ts';
import { globToRegExp, isBlocked, parseBlockEntries } from './request-blocking.ts';

const PAGE = 'https://shop.example/';

function request(url: string, type = 'script') {
  return { url: () => url, resourceType: () => type, sourceUrl: PAGE };
}

describe('block entries', () => {
  it('splits resource types, categories and globs', () => {
    const rules = parseBlockEntries(['image', 'ads', '*.woff2', 'cdn.example/x']);
    expect([...rules.resourceTypes]).toEqual(['image']);
    expect([...rules.categories]).toEqual(['ads']);
    expect(rules.globs).toHaveLength(2);
  });

  it('matches globs over the whole URL, * spanning slashes, other characters literal', () => {
    expect(globToRegExp('*.woff2').test('https://a.example/f/x.woff2')).toBe(true);
    expect(globToRegExp('*.woff2').test('https://a.example/f/x.woff2?v=1')).toBe(false);
    expect(globToRegExp('https://*.example/ads/*').test('https://cdn.example/ads/1.js')).toBe(true);
    expect(globToRegExp('https://*.example/ads/*').test('https://cdn.examplexads/1.js')).toBe(false);
    expect(globToRegExp('tracker.example').test('https://tracker.example/p.gif')).toBe(true);
    expect(globToRegExp('a?b').test('https://x/a?b')).toBe(true);
    expect(globToRegExp('a?b').test('https://x/acb')).toBe(false);
  });

  it('blocks by resource type and glob', () => {
    const rules = parseBlockEntries(['font', '*/ads/*']);
    expect(isBlocked(request('https://cdn.example/f.woff2', 'font'), rules, undefined)).toBe(true);
    expect(isBlocked(request('https://cdn.example/ads/x.js'), rules, undefined)).toBe(true);
    expect(isBlocked(request('https://cdn.example/app.js'), rules, undefined)).toBe(false);
    expect(isBlocked(request('data:image/png;base64,AA', 'font'), rules, undefined)).toBe(false);
  });
});

describe('maintained block lists', async () => {
  const lists = await loadBlockLists();
  const categoriesOf = (url: string) => lists.categoriesOf({ url, type: 'script', sourceUrl: PAGE });

  it('puts well-known hosts in the right category', () => {
    expect(categoriesOf('https://securepubads.g.doubleclick.net/tag/js/gpt.js')).toContain('ads');
    expect(categoriesOf('https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js')).toContain('ads');
    expect(categoriesOf('https://www.google-analytics.com/analytics.js')).toContain('trackers');
    expect(categoriesOf('https://cdn.cookielaw.org/scripttemplates/otSDKStub.js')).toContain(
      'cookie-banners',
    );
    expect(categoriesOf('https://consent.cookiebot.com/uc.js')).toContain('cookie-banners');
    expect(categoriesOf('https://widget.intercom.io/widget/abc')).toContain('chat-widgets');
  });

  it("leaves ordinary resources and an organisation's own site alone", () => {
    expect(categoriesOf('https://shop.example/app.js')).toEqual([]);
    expect(categoriesOf('https://fonts.googleapis.com/css2?family=Inter')).toEqual([]);
    expect(categoriesOf('https://www.google.com/recaptcha/api.js')).toEqual([]);
  });

  it('ships cookie-banner selectors from the autoconsent rules', () => {
    expect(lists.cookieBannerSelectors.length).toBeGreaterThan(100);
    expect(lists.cookieBannerSelectors).toContain('#onetrust-banner-sdk');
  });

  it('blocks a request only for the categories asked for', () => {
    const ad = request('https://securepubads.g.doubleclick.net/tag/js/gpt.js');
    expect(isBlocked(ad, parseBlockEntries(['ads']), lists)).toBe(true);
    expect(isBlocked(ad, parseBlockEntries(['chat-widgets']), lists)).toBe(false);
  });
});
