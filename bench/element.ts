import { createBrowserPool } from '../packages/server/src/browser/browser-pool.ts';
import { capture, emulate } from '../packages/server/src/browser/capture-page.ts';
import {
  CANDIDATES_GLOBAL,
  collectCandidatesInPage,
} from '../packages/server/src/browser/element/page-candidates.ts';
import { MAX_CANDIDATES, resolveElement } from '../packages/server/src/browser/element/resolve-element.ts';
import { returnToTop, scrollToBottom } from '../packages/server/src/browser/page-stabilisation.ts';
import { EVAL_SET } from '../test/element/eval-set.ts';
import { runElementEval, summariseEval } from '../test/element/run-eval.ts';
import { pageOptions } from '../test/support/capture-test-kit.ts';
import { VITRINE_CHROMIUM_PATH } from './baselines.ts';
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
    executablePath: VITRINE_CHROMIUM_PATH,
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

export interface ElementEvalBenchResult {
  /** Per template: hits of the real descriptions and nonsense ones refused. */
  templates: ReturnType<typeof summariseEval>['templates'];
  real: { hits: number; total: number };
  tuning: { hits: number; total: number };
  heldOut: { hits: number; total: number };
  /** Templates by other authors, labelled before the resolver ran on them (held out too). */
  newFamilies: { hits: number; total: number };
  nonsense: { hits: number; total: number };
  /** Of all 422 element_not_found answers, the share that were for nonsense descriptions. */
  notFoundPrecision: { nonsense: number; answered422: number };
  /** The resolver's time per description on these pages, p50 / p95 ms. */
  resolve: Stats;
}

/**
 * The evaluation set of issue 33 (test/element): the built-in resolver on 19 real templates
 * (tuning, held-out and new-families parts), each page loaded once; the hit rate (box IoU >= 0.6 with an acceptable element), the share of
 * nonsense descriptions refused, and the not-found precision.
 */
export async function elementEvalSection(origin: string): Promise<ElementEvalBenchResult> {
  const pool = createBrowserPool({
    executablePath: VITRINE_CHROMIUM_PATH,
    concurrency: 1,
    queueLimit: 4,
    recycleAfter: 200,
    captureTimeoutMs: 300_000,
  });
  try {
    const outcomes = await runElementEval(pool, origin, EVAL_SET);
    const summary = summariseEval(outcomes);
    const refused = outcomes.filter((o) => o.answer === '422');
    for (const t of summary.templates) {
      console.log(
        `  ${t.template} [${t.part}]: ${t.real.hits}/${t.real.total}, nonsense refused ${t.nonsense.hits}/${t.nonsense.total}`,
      );
    }
    return {
      templates: summary.templates,
      real: summary.real,
      tuning: summary.tuning,
      heldOut: summary.heldOut,
      newFamilies: summary.newFamilies,
      nonsense: summary.nonsense,
      notFoundPrecision: {
        nonsense: refused.filter((o) => o.kind === 'nonsense').length,
        answered422: refused.length,
      },
      resolve: stats(outcomes.map((o) => o.ms)),
    };
  } finally {
    await pool.close();
  }
}

export interface ElementCostResult {
  page: string;
  query: string;
  selector: string;
  /** Whole captures, client side. */
  withSelector: Stats;
  withElement: Stats;
  /** The captures' own phases: waits (with `element`, the scroll through too) and the element search. */
  selectorWaits: Stats;
  elementWaitsAndSearch: Stats;
  /**
   * P12: p50 of (waits + element phase) of the `element` capture minus p50 of the waits of the
   * `selector` capture. Whole-capture times are reported beside it but not used: a capture with a
   * selector lets the pool prepare its next page during the shot, which an `element` capture
   * (prepared like a full page) does after it, and on two cores that moves the shot by hundreds
   * of milliseconds either way.
   */
  addedP50: number;
}

/**
 * P12: what `element` adds to a whole capture (page load, waits, the shot) against the same
 * capture given the CSS selector of the same element, on the heavy bench page, interleaved.
 * The `element` capture also scrolls through the page first (lazy sections must exist before they
 * can be found): that is part of what it adds.
 */
export async function elementCostSection(
  url: string,
  viewport: { width: number; height: number },
  rounds: number,
): Promise<ElementCostResult> {
  const query = 'customer table';
  const pool = createBrowserPool({
    executablePath: VITRINE_CHROMIUM_PATH,
    concurrency: 1,
    queueLimit: 4,
    recycleAfter: 200,
    captureTimeoutMs: 120_000,
  });
  const settings = { navigationTimeoutMs: 30_000 };
  const base = pageOptions(url, { viewport });
  try {
    const first = await capture(pool, { ...base, element: query }, settings);
    const selector = first.element?.selector;
    if (!selector) throw new Error(`element bench: "${query}" resolved to nothing on ${url}`);
    const withSelector: number[] = [];
    const withElement: number[] = [];
    const selectorWaits: number[] = [];
    const elementPhases: number[] = [];
    for (let i = 0; i < rounds; i++) {
      let start = performance.now();
      const bySelector = await capture(pool, { ...base, selector }, settings);
      withSelector.push(performance.now() - start);
      selectorWaits.push(bySelector.timings.waits ?? 0);
      start = performance.now();
      const byElement = await capture(pool, { ...base, element: query }, settings);
      withElement.push(performance.now() - start);
      elementPhases.push((byElement.timings.waits ?? 0) + (byElement.timings.element ?? 0));
    }
    const s = stats(withSelector);
    const e = stats(withElement);
    const sw = stats(selectorWaits);
    const ew = stats(elementPhases);
    const added = Math.round(ew.p50 - sw.p50);
    console.log(
      `  heavy: waits + element search p50 ${ew.p50} ms against the selector capture's waits ${sw.p50} ms (${added >= 0 ? '+' : ''}${added} ms); whole captures p50 ${e.p50} vs ${s.p50} ms`,
    );
    return {
      page: 'heavy',
      query,
      selector,
      withSelector: s,
      withElement: e,
      selectorWaits: sw,
      elementWaitsAndSearch: ew,
      addedP50: added,
    };
  } finally {
    await pool.close();
  }
}
