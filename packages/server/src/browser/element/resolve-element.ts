import type { Page } from 'playwright-core';
import { z } from 'zod';
import type { ElementOutlineEntry } from '../../element-outline.ts';
import { AppError } from '../../errors/app-error.ts';
import { type ChartsInPage, chartKinds } from './chart-kinds.ts';
import type {
  CandidateContents,
  CandidateSnapshot,
  DocumentBox,
  ElementCandidate,
} from './element-candidate.ts';
import { CANDIDATES_GLOBAL, collectCandidatesInPage, selectorInPage } from './page-candidates.ts';
import { type ScoredCandidate, scoreCandidates, summarise } from './score-candidates.ts';

/**
 * Below this confidence no element is taken: the capture fails with `element_not_found` (and is
 * refunded) rather than framing a part of the page the user did not mean. Chosen on the labelled
 * fixture queries (docs/decisions.md): every correct pick scores at or above it, descriptions of
 * things that are not on the page score well below.
 */
export const ELEMENT_CONFIDENCE_THRESHOLD = 0.5;
/** Most candidates listed from one page (a heavy page has thousands of elements). */
export const MAX_CANDIDATES = 3000;
/** How many of the best candidates an AI picker sees, and a 422 lists. */
const OUTLINE_SIZE = 8;
const FAILURE_CANDIDATES = 3;

/** What `element_resolved` reports (interface.md 2.6, docs/api-decisions.md section 4). */
export interface ElementResolution {
  query: string;
  selector: string;
  /** How the element was found: `accessibility`, `landmark`, `heading`, `visual_block`, or `ai`. */
  strategy: string;
  bbox: DocumentBox;
  confidence: number;
}

/**
 * An optional picker (the AI provider, when configured): given the description and an outline of
 * the best candidates (roles, headings, sizes, a small crop of each), the index of the one meant,
 * `'none'` when none of them is what the description means (the capture is then
 * `element_not_found`), or null to leave the choice to the built-in scoring.
 */
export type ElementChooser = (
  query: string,
  outline: ElementOutlineEntry[],
  signal?: AbortSignal,
) => Promise<number | 'none' | null>;

export interface ResolveElementOptions {
  chooseElement?: ElementChooser;
  threshold?: number;
  signal?: AbortSignal;
}

/**
 * The page script runs in the page's own world, so a hostile page can answer anything: its answer
 * is checked like any input (shape, sizes) before it is scored or reported.
 */
const num = z.number().finite();
const CONTENT_KEYS = [
  'canvas',
  'svg',
  'tables',
  'forms',
  'inputs',
  'passwords',
  'emails',
  'searches',
  'buttons',
  'images',
  'links',
  'headings',
  'listItems',
  'prices',
  'repeats',
] as const satisfies readonly (keyof CandidateContents)[];
const text = z.string().max(100_000);
const snapshotSchema = z.object({
  candidates: z
    .array(
      z.object({
        index: z.number().int().min(0),
        tag: z.string().max(100),
        role: z.string().max(100),
        name: text,
        heading: text,
        headingDrawn: z.boolean(),
        innerHeadings: text,
        ident: text,
        innerIdent: text,
        charts: z.array(z.string().max(40)).max(12),
        text,
        textLength: num,
        contents: z.object(
          Object.fromEntries(CONTENT_KEYS.map((k) => [k, num])) as Record<
            (typeof CONTENT_KEYS)[number],
            typeof num
          >,
        ),
        box: z.object({ x: num, y: num, width: num, height: num }),
        parent: z.number().int(),
        surface: z.boolean(),
        colour: z.string().max(20),
      }),
    )
    .max(MAX_CANDIDATES),
  layout: z.object({ viewportWidth: num, viewportHeight: num, documentWidth: num, documentHeight: num }),
});
/** Longest selector reported; a longer answer is not a selector this page script built. */
const MAX_SELECTOR_LENGTH = 2000;

const LANDMARK_TAGS = new Set(['header', 'nav', 'main', 'footer', 'aside', 'form', 'search']);
// A `section` is a region landmark only when named (ARIA), and a named one reports `accessibility`.
const LANDMARK_ROLES = new Set([
  'banner',
  'navigation',
  'main',
  'contentinfo',
  'complementary',
  'form',
  'search',
]);

/** Which kind of evidence made a candidate: the `strategy` reported. */
function strategyOf(c: ElementCandidate): string {
  if (c.name !== '') return 'accessibility';
  if (LANDMARK_TAGS.has(c.tag) || LANDMARK_ROLES.has(c.role)) return 'landmark';
  if (c.heading !== '') return 'heading';
  return 'visual_block';
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

function notFound(
  query: string,
  best: ScoredCandidate[],
  threshold: number,
  selectors: (string | null)[],
): AppError {
  return new AppError(
    'capture_failed',
    `element: nothing on the page matches "${query}" with confidence ${threshold} or more`,
    {
      details: {
        reason: 'element_not_found',
        query,
        threshold,
        candidates: best.map((b, i) => ({
          selector: selectors[i] ?? null,
          summary: summarise(b.candidate),
          confidence: round(b.score),
        })),
      },
    },
  );
}

function parseSnapshot(raw: unknown): CandidateSnapshot {
  try {
    return snapshotSchema.parse(JSON.parse(String(raw)));
  } catch (cause) {
    throw new AppError('capture_failed', 'element: the page could not be searched for the element', {
      details: { reason: 'render_failed' },
      cause,
    });
  }
}

/** Runs the page scripts of the resolver in a world of their own. */
interface PageScripts {
  run<A, R>(script: (args: A) => R, args: A): Promise<R>;
  /** The same script on each of several arguments, in one call (one compile, one round trip). */
  runEach<A, R>(script: (args: A) => R, list: A[]): Promise<R[]>;
  /** A small JPEG of a box of the page (document CSS px), as a data URL, or undefined. */
  crop(box: DocumentBox): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Longest side of a crop shown to an AI picker, in image pixels. */
const CROP_SIDE = 256;

/**
 * An isolated world on the page's main frame (what extensions' content scripts use): the same DOM,
 * but its own globals and prototypes, so a page that redefines `Array.prototype.map`, `JSON` or
 * `CSS.escape` (old libraries do, hostile pages may) cannot break or steer the resolver, and the
 * candidates kept between calls are invisible to the page.
 */
async function isolatedScripts(page: Page): Promise<PageScripts> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { frameTree } = await cdp.send('Page.getFrameTree');
    const { executionContextId } = await cdp.send('Page.createIsolatedWorld', {
      frameId: frameTree.frame.id,
      worldName: 'vitrine-element',
    });
    /** Evaluates `body` in the isolated world; its value, or the page's exception as an Error. */
    async function evaluate(body: string): Promise<unknown> {
      // `__name`: what a bundler's keepNames wraps functions in; defined so the source runs as is.
      const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
        expression: `(() => { const __name = (f) => f; ${body} })()`,
        contextId: executionContextId,
        returnByValue: true,
      });
      if (exceptionDetails) {
        throw new Error(exceptionDetails.exception?.description ?? exceptionDetails.text);
      }
      return result.value;
    }
    return {
      async run<A, R>(script: (args: A) => R, args: A): Promise<R> {
        return (await evaluate(`return (${script.toString()})(${JSON.stringify(args)});`)) as R;
      },
      async runEach(script, list) {
        const value = await evaluate(
          `const script = (${script.toString()}); return ${JSON.stringify(list)}.map((args) => script(args));`,
        );
        return Array.isArray(value) ? value : [];
      },
      async crop(box) {
        if (box.width < 1 || box.height < 1) return undefined;
        const scale = Math.min(1, CROP_SIDE / Math.max(box.width, box.height));
        try {
          const { data } = await cdp.send('Page.captureScreenshot', {
            format: 'jpeg',
            quality: 60,
            captureBeyondViewport: true,
            clip: { x: box.x, y: box.y, width: box.width, height: box.height, scale },
          });
          return `data:image/jpeg;base64,${data}`;
        } catch {
          return undefined;
        }
      },
      close: () => cdp.detach().catch(() => undefined),
    };
  } catch (error) {
    await cdp.detach().catch(() => undefined);
    throw error;
  }
}

const checkedSelector = (selector: unknown): string | null =>
  typeof selector === 'string' && selector.length > 0 && selector.length <= MAX_SELECTOR_LENGTH
    ? selector
    : null;

async function selectorOf(scripts: PageScripts, index: number): Promise<string | null> {
  return checkedSelector(await scripts.run(selectorInPage, { index, globalName: CANDIDATES_GLOBAL }));
}

/** The selectors of several candidates in one call (a 422 lists the best three). */
async function selectorsOf(scripts: PageScripts, indices: number[]): Promise<(string | null)[]> {
  const found: unknown[] = await scripts
    .runEach(
      selectorInPage,
      indices.map((index) => ({ index, globalName: CANDIDATES_GLOBAL })),
    )
    .catch(() => []);
  return indices.map((_, i) => checkedSelector(found[i]));
}

/**
 * Maps a plain-language description onto one element of the loaded page: candidates listed in
 * the page, scored here (stemmed words, synonyms, roles, structure, layout), optionally picked by
 * the AI among the best, then given a stable selector that is checked to re-select that element.
 * Throws 422 `capture_failed` / `element_not_found`, with the best candidates, below the
 * confidence threshold.
 */
export async function resolveElement(
  page: Page,
  query: string,
  options: ResolveElementOptions = {},
): Promise<ElementResolution> {
  const kinds = await chartKinds(page);
  const scripts = await isolatedScripts(page);
  try {
    return await resolveWith(scripts, query, options, kinds);
  } finally {
    await scripts.close();
  }
}

async function resolveWith(
  scripts: PageScripts,
  query: string,
  options: ResolveElementOptions,
  kinds: ChartsInPage,
): Promise<ElementResolution> {
  const threshold = options.threshold ?? ELEMENT_CONFIDENCE_THRESHOLD;
  const raw = await scripts.run(collectCandidatesInPage, {
    max: MAX_CANDIDATES,
    globalName: CANDIDATES_GLOBAL,
    canvasKinds: kinds.canvas,
    echartsKinds: kinds.echarts,
    canvasWords: kinds.canvasWords,
    echartsWords: kinds.echartsWords,
  });
  const snapshot = parseSnapshot(raw);
  const ranked = scoreCandidates(query, snapshot.candidates, snapshot.layout);
  let chosen = ranked[0];
  let strategy = chosen ? strategyOf(chosen.candidate) : '';

  // The AI picks among plausible candidates only; it cannot lift a page with nothing relevant.
  // It may also say that none of them is meant.
  let refused = false;
  if (options.chooseElement && chosen && chosen.score >= threshold / 2) {
    const top = ranked.slice(0, OUTLINE_SIZE);
    const outline: ElementOutlineEntry[] = [];
    for (const [i, s] of top.entries()) {
      const c = s.candidate;
      const crop = await scripts.crop(c.box);
      outline.push({
        index: i,
        summary: summarise(c),
        role: c.role || c.tag,
        heading: c.heading,
        width: Math.round(c.box.width),
        height: Math.round(c.box.height),
        ...(crop ? { crop } : {}),
      });
    }
    const pick = await options.chooseElement(query, outline, options.signal).catch(() => null);
    if (pick === 'none') refused = true;
    const picked = typeof pick === 'number' && Number.isInteger(pick) ? top[pick] : undefined;
    if (picked) {
      chosen = { candidate: picked.candidate, score: Math.max(picked.score, threshold) };
      strategy = 'ai';
    }
  }

  if (!chosen || chosen.score < threshold || refused) {
    const best = ranked.slice(0, FAILURE_CANDIDATES);
    const selectors = await selectorsOf(
      scripts,
      best.map((b) => b.candidate.index),
    );
    throw notFound(query, best, threshold, selectors);
  }
  const selector = await selectorOf(scripts, chosen.candidate.index);
  if (selector === null) {
    throw new AppError(
      'capture_failed',
      `element: the element matching "${query}" left the page before its shot`,
      {
        details: { reason: 'element_not_found', query },
      },
    );
  }
  const { box } = chosen.candidate;
  return {
    query,
    selector,
    strategy,
    bbox: { x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) },
    confidence: round(Math.min(1, chosen.score)),
  };
}
