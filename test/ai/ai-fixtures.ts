import type { PageType, Tone } from '../../packages/server/src/ai/ai-types.ts';
import { createBlockListsLoader } from '../../packages/server/src/browser/block-lists.ts';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { capture } from '../../packages/server/src/browser/capture-page.ts';
import type { PageCapture } from '../../packages/server/src/browser/page-capture-options.ts';
import { pageOptions } from '../support/capture-test-kit.ts';

/** The labelled fixture set of the AI step (test/fixtures/pages/ai): what a person says each page is. */
export const AI_FIXTURES: { file: string; type: PageType; tone: Tone }[] = [
  { file: 'landing.html', type: 'landing', tone: 'colourful' },
  { file: 'landing-dark.html', type: 'landing', tone: 'dark' },
  { file: 'dashboard.html', type: 'dashboard', tone: 'dark' },
  { file: 'docs.html', type: 'docs', tone: 'minimal' },
  { file: 'shop.html', type: 'e-commerce', tone: 'light' },
  { file: 'blog.html', type: 'blog', tone: 'minimal' },
  { file: 'blog-minimal.html', type: 'blog', tone: 'minimal' },
  { file: 'pricing.html', type: 'pricing', tone: 'colourful' },
  { file: 'portfolio.html', type: 'portfolio', tone: 'dark' },
  { file: 'sign-in.html', type: 'app-sign-in', tone: 'minimal' },
];

/**
 * Captures a fixture page with its signals. The machine running the suite may be saturated
 * (several Chromiums at once): a capture that fails for load alone is tried again, up to 3 times.
 */
export async function captureFixture(pool: BrowserPool, url: string): Promise<PageCapture> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      return await capture(
        pool,
        pageOptions(url, { viewport: { width: 1280, height: 800 }, collectSignals: true }),
        {
          navigationTimeoutMs: 60_000,
          blockLists: createBlockListsLoader(),
        },
      );
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
