import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { emulate } from '../../packages/server/src/browser/capture-page.ts';
import type { DocumentBox } from '../../packages/server/src/browser/element/element-candidate.ts';
import { resolveElement } from '../../packages/server/src/browser/element/resolve-element.ts';
import { returnToTop, scrollToBottom } from '../../packages/server/src/browser/page-stabilisation.ts';
import { AppError } from '../../packages/server/src/errors/app-error.ts';
import { pageOptions } from '../support/capture-test-kit.ts';
import { TEMPLATES_PATH } from '../support/fixture-server.ts';
import { EVAL_VIEWPORT, type EvalPage, type EvalPart, HIT_IOU } from './eval-set.ts';

/** One description's outcome on its page. */
export interface EvalOutcome {
  template: string;
  page: string;
  part: EvalPart;
  query: string;
  kind: 'real' | 'nonsense';
  /** Real: picked box IoU >= HIT_IOU with an acceptable box. Nonsense: answered element_not_found. */
  hit: boolean;
  /** Best IoU with an acceptable element (real queries), 0 when nothing was picked. */
  iou: number;
  /** The selector picked, or `422` when the resolver found nothing good enough. */
  answer: string;
  confidence: number;
  /** Time the resolver took for this description, ms. */
  ms: number;
  /** Acceptable selectors that match no element (a labelling error, reported by the test). */
  unmatched: string[];
}

export function iou(a: DocumentBox, b: DocumentBox): number {
  const x1 = Math.max(a.x, b.x);
  const y1 = Math.max(a.y, b.y);
  const x2 = Math.min(a.x + a.width, b.x + b.width);
  const y2 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x2 - x1) * Math.max(0, y2 - y1);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * Loads each page of the set once (at the service's default viewport, scrolled through as a
 * capture with `element` does) and resolves all of its descriptions on it with the built-in
 * resolver, in real Chromium.
 */
export async function runElementEval(
  pool: BrowserPool,
  origin: string,
  pages: readonly EvalPage[],
): Promise<EvalOutcome[]> {
  const outcomes: EvalOutcome[] = [];
  for (const page of pages) {
    const url = `${origin}${TEMPLATES_PATH}${page.template}/${page.page}`;
    await pool.run(async (lease) => {
      await emulate(lease.cdp, pageOptions(url, { viewport: EVAL_VIEWPORT }));
      await lease.page.goto(url, { waitUntil: 'load' });
      lease.loaded();
      await scrollToBottom(lease.page, 16384);
      await returnToTop(lease.page, 1000);
      const descriptions: [string, string[], 'real' | 'nonsense'][] = [
        ...page.queries.map(([q, ...accept]): [string, string[], 'real'] => [q, accept, 'real']),
        ...page.nonsense.map((q): [string, string[], 'nonsense'] => [q, [], 'nonsense']),
      ];
      for (const [query, accept, kind] of descriptions) {
        const start = performance.now();
        let answer = '422';
        let confidence = 0;
        let box: DocumentBox | null = null;
        try {
          const r = await resolveElement(lease.page, query);
          answer = r.selector;
          confidence = r.confidence;
          box = r.bbox;
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          const details = error.details as { reason?: string; candidates?: { confidence: number }[] };
          if (details?.reason !== 'element_not_found') throw error;
          confidence = details.candidates?.[0]?.confidence ?? 0;
        }
        const ms = performance.now() - start;
        const boxes = await lease.page.evaluate((selectors) => {
          return selectors.map((sel) =>
            [...document.querySelectorAll(sel)].map((el) => {
              const r = el.getBoundingClientRect();
              return {
                x: r.left + window.scrollX,
                y: r.top + window.scrollY,
                width: r.width,
                height: r.height,
              };
            }),
          );
        }, accept);
        const best = box ? Math.max(0, ...boxes.flat().map((b) => iou(box, b))) : 0;
        outcomes.push({
          template: page.template,
          page: page.page,
          part: page.part,
          query,
          kind,
          hit: kind === 'real' ? best >= HIT_IOU : answer === '422',
          iou: Math.round(best * 100) / 100,
          answer,
          confidence,
          ms: Math.round(ms),
          unmatched: accept.filter((_, i) => (boxes[i]?.length ?? 0) === 0),
        });
      }
    });
  }
  return outcomes;
}

/** Hit rates per template and part, as the test prints them and docs/benchmarks.md shows them. */
export function summariseEval(outcomes: readonly EvalOutcome[]) {
  const rate = (list: readonly EvalOutcome[]) => ({
    hits: list.filter((o) => o.hit).length,
    total: list.length,
  });
  const real = outcomes.filter((o) => o.kind === 'real');
  const nonsense = outcomes.filter((o) => o.kind === 'nonsense');
  const templates = [...new Set(outcomes.map((o) => o.template))].map((template) => ({
    template,
    part: outcomes.find((o) => o.template === template)?.part ?? 'tuning',
    real: rate(real.filter((o) => o.template === template)),
    nonsense: rate(nonsense.filter((o) => o.template === template)),
  }));
  return {
    templates,
    real: rate(real),
    tuning: rate(real.filter((o) => o.part === 'tuning')),
    heldOut: rate(real.filter((o) => o.part === 'held-out')),
    newFamilies: rate(real.filter((o) => o.part === 'new-families')),
    nonsense: rate(nonsense),
  };
}

/** One line per outcome, misses marked: what the test prints. */
export function describeOutcomes(outcomes: readonly EvalOutcome[]): string {
  return outcomes
    .map(
      (o) =>
        `${o.hit ? 'ok  ' : 'MISS'} [${o.part}] ${o.template}/${o.page} ${o.kind === 'nonsense' ? '(nonsense) ' : ''}"${o.query}" -> ${o.answer} (iou ${o.iou}, conf ${o.confidence}, ${o.ms} ms)`,
    )
    .join('\n');
}
