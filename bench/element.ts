import { createBrowserPool } from '../packages/server/src/capture/browser-pool.ts';
import { emulate } from '../packages/server/src/capture/capture-page.ts';
import {
  CANDIDATES_GLOBAL,
  collectCandidatesInPage,
} from '../packages/server/src/capture/element/page-candidates.ts';
import { MAX_CANDIDATES, resolveElement } from '../packages/server/src/capture/element/resolve-element.ts';
import { returnToTop, scrollToBottom } from '../packages/server/src/capture/page-stabilisation.ts';
import { pageOptions } from '../test/support/capture-test-kit.ts';
import { CHROMIUM_PATH } from './baselines.ts';
import { type Stats, stats } from './measure.ts';

export interface ElementBenchResult {
  page: string;
  query: string;
  /** What the resolver answered: a selector, or "422" when nothing was good enough. */
  outcome: string;
  candidates: number;
  resolve: Stats;
}

/**
 * The resolver's own cost (issue 14): on an already loaded page, the time from a description to a
 * checked selector (list candidates in the page, score them, build the selector), `rounds` times
 * per query. Page loading is not included: it is the same as any capture's.
 */
export async function elementSection(
  pages: { heavy: string; long: string },
  viewport: { width: number; height: number },
  rounds: number,
): Promise<ElementBenchResult[]> {
  // The bench pages are light in elements; "heavy x40" repeats the heavy page's body 40 times
  // (about 2,400 elements) to show how the cost grows with the DOM.
  const all = { ...pages, 'heavy x40': pages.heavy };
  const queries: [keyof typeof all, string][] = [
    ['heavy', 'customer table'],
    ['heavy', 'hero'],
    ['heavy', 'the spaceship'],
    ['long', 'section 7'],
    ['long', 'the spaceship'],
    ['heavy x40', 'customer table'],
    ['heavy x40', 'the spaceship'],
  ];
  const pool = createBrowserPool({
    executablePath: CHROMIUM_PATH,
    concurrency: 1,
    queueLimit: 4,
    recycleAfter: 200,
    captureTimeoutMs: 120_000,
  });
  const results: ElementBenchResult[] = [];
  try {
    for (const name of ['heavy', 'long', 'heavy x40'] as const) {
      await pool.run(async (lease) => {
        await emulate(lease.cdp, pageOptions(all[name], { viewport }));
        await lease.page.goto(all[name], { waitUntil: 'load' });
        lease.loaded();
        if (name === 'heavy x40') {
          await lease.page.evaluate(() => {
            const body = document.body.innerHTML;
            document.body.innerHTML = Array.from({ length: 40 }, () => body).join('');
          });
        }
        await scrollToBottom(lease.page, 16384);
        await returnToTop(lease.page, 3000);
        for (const [page, query] of queries.filter(([p]) => p === name)) {
          const times: number[] = [];
          let outcome = '';
          for (let i = 0; i < rounds; i++) {
            const start = performance.now();
            outcome = await resolveElement(lease.page, query).then(
              (r) => r.selector,
              () => '422',
            );
            times.push(performance.now() - start);
          }
          const listed = await lease.page.evaluate(collectCandidatesInPage, {
            max: MAX_CANDIDATES,
            globalName: CANDIDATES_GLOBAL,
          });
          const candidates = (JSON.parse(String(listed)) as { candidates: unknown[] }).candidates.length;
          results.push({ page, query, outcome, candidates, resolve: stats(times) });
          console.log(
            `  ${page} "${query}": p50 ${stats(times).p50} ms (${candidates} candidates) -> ${outcome}`,
          );
        }
      });
    }
  } finally {
    await pool.close();
  }
  return results;
}
