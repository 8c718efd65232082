/**
 * What a scroll video needs from the page besides its full-page shot (issue 37): where the
 * scroll ends, and the parts of the page that stay pinned while it scrolls (fixed headers,
 * sticky bars, a chat button). A full-page shot shows them once, where they are at the top; a
 * browser keeps them on screen. So the page is shot a second time without them, and they are
 * shot on their own (transparent around them) with the page scrolled to the end, as every frame
 * after the first shows them (a navbar that shrinks or turns opaque once scrolled, a button that
 * appears then); each video frame is the second shot at its scroll position with the pinned
 * parts drawn where the browser would show them.
 */
import type { CDPSession, Page } from 'playwright-core';
import { captureScreenshot } from '../chromium/capture-screenshot.ts';
import type { PinnedLayer, ScrollCapture, ScrollTargetOption } from '../image/page-scroll.ts';
import { captureFailed } from './capture-errors.ts';
import { type AnimationBudget, finishAnimations, GATE, setPageGate } from './finish-animations.ts';

/** At most this many pinned parts are followed; more would be unusual and slow to shoot. */
const MAX_LAYERS = 12;
const MARK = 'data-vitrine-pinned';
/** Marks the pinned parts of the page scrolled to the end of the scroll. */
const END_MARK = 'data-vitrine-pinned-end';
const STYLE_ID = 'vitrine-pinned-style';

interface FoundPinned {
  index: number;
  /** Scrolled: the element's id across the stops (`idAttr`). */
  id: string;
  position: 'fixed' | 'sticky';
  x: number;
  /** At the top: the document top. Scrolled: the top in the viewport (clipped to it). */
  top: number;
  width: number;
  height: number;
  stickTop: number;
}

/**
 * Marks the outermost visible fixed and sticky elements (in the page; must be self-contained).
 * `scrolled`: the page is scrolled; only what shows in the viewport counts, measured there.
 */
function markPinned(args: {
  mark: string;
  idAttr: string | null;
  scrolled: boolean;
  max: number;
}): FoundPinned[] {
  const found: FoundPinned[] = [];
  const marked: Element[] = [];
  const { scrolled } = args;
  for (const el of Array.from(document.querySelectorAll('body *'))) {
    if (found.length >= args.max) break;
    const style = getComputedStyle(el);
    if (style.position !== 'fixed' && style.position !== 'sticky') continue;
    if (marked.some((outer) => outer.contains(el))) continue;
    if (style.visibility === 'hidden' || style.display === 'none' || Number(style.opacity) === 0) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width < 1 || rect.height < 1) continue;
    // A sticky element without a top offset sticks to another edge, which a scroll down the
    // page does not show: it scrolls with the page like any other.
    const stickTop = style.position === 'sticky' ? Number.parseFloat(style.top) : rect.top;
    if (!Number.isFinite(stickTop)) continue;
    let { left, top, width, height } = rect;
    if (scrolled) {
      // What shows of it on screen (a navbar slid up out of view shows nothing).
      const x0 = Math.max(0, left);
      const y0 = Math.max(0, top);
      const x1 = Math.min(window.innerWidth, left + width);
      const y1 = Math.min(window.innerHeight, top + height);
      if (x1 - x0 < 1 || y1 - y0 < 1) continue;
      left = x0;
      top = y0;
      width = x1 - x0;
      height = y1 - y0;
    } else {
      top += window.scrollY;
    }
    el.setAttribute(args.mark, String(found.length));
    let id = '';
    if (args.idAttr) {
      id = el.getAttribute(args.idAttr) ?? String(document.querySelectorAll(`[${args.idAttr}]`).length);
      el.setAttribute(args.idAttr, id);
    }
    marked.push(el);
    found.push({
      index: found.length,
      id,
      position: style.position,
      x: left,
      top,
      width,
      height,
      stickTop,
    });
  }
  return found;
}

/** The document top of the first element matching `selector`, or a reason it has none. */
function selectorTop(selector: string): number | 'missing' | 'invalid' {
  try {
    const el = document.querySelector(selector);
    if (!el) return 'missing';
    return el.getBoundingClientRect().top + window.scrollY;
  } catch {
    return 'invalid';
  }
}

async function scrollEnd(page: Page, target: ScrollTargetOption, pageHeight: number, viewportHeight: number) {
  const max = Math.max(0, Math.floor(pageHeight - viewportHeight));
  if (target.kind === 'end') return max;
  if (target.kind === 'pixels') return Math.min(max, target.y);
  const top = await page.evaluate(selectorTop, target.selector);
  if (typeof top !== 'number') {
    const why = top === 'missing' ? 'no element matched' : 'is not a valid CSS selector';
    throw captureFailed('selector_not_found', `motion.scroll_to "${target.selector}": ${why}`);
  }
  return Math.min(max, Math.max(0, Math.round(top)));
}

/**
 * How long the page's clock is run after the scroll to the end, for what its scroll handlers
 * start (a navbar that shrinks, a scroll-to-top button that fades in, a scroll spy): short, the
 * page has settled before.
 */
const SCROLLED_BUDGET: AnimationBudget = {
  pageMs: 3000,
  wallMs: 1500,
  quietMs: 300,
  stepMs: 50,
  frameMs: 50,
  requestWaitMs: 500,
  requestQuietMs: 50,
};

/** Hides everything but the elements carrying `mark`, on a transparent page. */
function showOnly(args: { id: string; mark: string }): void {
  let style = document.getElementById(args.id);
  if (!style) {
    style = document.createElement('style');
    style.id = args.id;
    document.head.append(style);
  }
  style.textContent = `* { visibility: hidden !important; } [${args.mark}], [${args.mark}] * { visibility: visible !important; } html, body { background: transparent !important; }`;
}

/**
 * Scrolls to `y` with the page watching (scroll events, intersections), waits for the frame
 * that delivers them, and returns the scroll position reached.
 */
async function scrollWatched(page: Page, y: number): Promise<number> {
  return page.evaluate(async (top) => {
    const real =
      (globalThis as unknown as { __pwClock?: { builtins: typeof globalThis } }).__pwClock?.builtins ??
      globalThis;
    const raf = (fn: () => void) => real.requestAnimationFrame.call(window, fn);
    window.scrollTo({ left: 0, top, behavior: 'instant' });
    await new Promise((resolve) => raf(() => raf(() => real.setTimeout.call(window, resolve, 0))));
    return window.scrollY;
  }, y);
}

/** Two rendered frames (real time), so what the page changed is painted before a shot. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const real =
      (globalThis as unknown as { __pwClock?: { builtins: typeof globalThis } }).__pwClock?.builtins ??
      globalThis;
    const raf = (fn: () => void) => real.requestAnimationFrame.call(window, fn);
    await new Promise((resolve) => raf(() => raf(() => resolve(undefined))));
  });
}

/** Most scroll positions the pinned parts are shot at: a scroll spy's sections, a threshold. */
const MAX_STOPS = 6;

/**
 * Where down the page the pinned parts are shot: evenly to the end, about one every screenful
 * (at most MAX_STOPS); each stands for the scroll positions nearer to it than to the next.
 */
export function scrollStops(
  endY: number,
  viewportHeight: number,
): { y: number; from: number; until: number }[] {
  const count = Math.max(1, Math.min(MAX_STOPS, Math.ceil(endY / Math.max(1, viewportHeight))));
  const ys = Array.from({ length: count }, (_, i) => Math.round((endY * (i + 1)) / count));
  return ys.map((y, i) => ({
    y,
    from: i === 0 ? 0 : ((ys[i - 1] as number) + y) / 2,
    until: i === count - 1 ? endY : (y + (ys[i + 1] as number)) / 2,
  }));
}

const PIN_ID = 'data-vitrine-pin-id';

/**
 * The pinned parts as the page shows them scrolled down: a navbar that shrinks or turns opaque
 * once scrolled, a scroll-to-top button shown only then, a scroll spy's active link. The page
 * sees the scroll (the gate open), scrolled down stop by stop (`scrollStops`, always downwards:
 * a navbar may follow the direction); at each its clock runs what the scroll started and each
 * part on screen is shot there. Then the page goes back to the top, where each sticky part's
 * place is measured, and its gate is put back as it was.
 */
async function shootScrolled(
  page: Page,
  cdp: CDPSession,
  endY: number,
  viewportHeight: number,
  stickyAtTop: { item: FoundPinned; png: Buffer }[],
): Promise<PinnedLayer[]> {
  const gate = await page.evaluate(
    (key) => (window as unknown as Record<symbol, unknown>)[Symbol.for(key)],
    GATE,
  );
  await setPageGate(page, 'top');
  let atTop = false;
  try {
    const shots: {
      item: FoundPinned;
      id: string;
      png: Buffer;
      scrollY: number;
      from: number;
      until: number;
    }[] = [];
    const stops = scrollStops(endY, viewportHeight);
    const covered: { from: number; until: number; ids: Set<string> }[] = [];
    for (let index = 0; index < stops.length; index += 1) {
      let stop = stops[index] as (typeof stops)[number];
      const scrollY = await scrollWatched(page, stop.y);
      const finished = await finishAnimations(page, SCROLLED_BUDGET);
      if (!finished.settled && index < stops.length - 1) {
        // A page that never goes quiet costs its budget at every stop: straight to the end,
        // which then stands for the whole way down.
        index = stops.length - 1;
        stop = { ...(stops[index] as (typeof stops)[number]), from: stop.from };
        await scrollWatched(page, stop.y);
        await finishAnimations(page, SCROLLED_BUDGET);
      }
      await painted(page);
      const found = await page.evaluate(markPinned, {
        mark: END_MARK,
        idAttr: PIN_ID,
        scrolled: true,
        max: MAX_LAYERS,
      });
      covered.push({ from: stop.from, until: stop.until, ids: new Set(found.map((item) => item.id)) });
      if (found.length === 0) continue;
      const reached = await page.evaluate(() => window.scrollY);
      await page.evaluate(showOnly, { id: STYLE_ID, mark: END_MARK });
      await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
      for (const item of found) {
        const shot = await captureScreenshot(cdp, {
          format: 'png',
          captureBeyondViewport: false,
          clip: { x: item.x, y: reached + item.top, width: item.width, height: item.height, scale: 1 },
        });
        shots.push({
          item,
          id: item.id,
          png: Buffer.from(shot.data, 'base64'),
          scrollY: Math.max(scrollY, reached),
          from: stop.from,
          until: stop.until,
        });
      }
      await cdp.send('Emulation.setDefaultBackgroundColorOverride', {});
      await page.evaluate(
        ({ id, mark }) => {
          document.getElementById(id)?.remove();
          for (const el of Array.from(document.querySelectorAll(`[${mark}]`))) el.removeAttribute(mark);
        },
        { id: STYLE_ID, mark: END_MARK },
      );
    }
    // A sticky part below the screen at a stop, which comes into view before the next one: its
    // shot at the top stands in for it there.
    const standIns = stickyAtTop.flatMap(({ item, png }) =>
      covered
        .filter((stop) => !stop.ids.has(item.id))
        .map((stop) => ({
          png,
          rect: { x: item.x, top: item.top, width: item.width, height: item.height },
          position: 'sticky' as const,
          stickTop: item.stickTop,
          shownFrom: stop.from,
          shownUntil: stop.until,
        })),
    );
    if (shots.length === 0) return standIns;
    // A sticky part follows the page until it reaches its offset, from where it sits at the top
    // (a navbar that only turns sticky once scrolled: its place at the top). Measured back there.
    await scrollWatched(page, 0);
    await finishAnimations(page, SCROLLED_BUDGET);
    atTop = true;
    const tops = await page.evaluate((idAttr) => {
      const tops: Record<string, number> = {};
      for (const el of Array.from(document.querySelectorAll(`[${idAttr}]`))) {
        const rect = el.getBoundingClientRect();
        if (rect.height > 0) tops[el.getAttribute(idAttr) as string] = rect.top + window.scrollY;
      }
      return tops;
    }, PIN_ID);
    const layers = shots.map(({ item, id, png, scrollY, from, until }) => ({
      png,
      rect: {
        x: item.x,
        // Fixed: its place on screen. Sticky: its document top (else where it was when shot).
        top: item.position === 'fixed' ? item.top : (tops[id] ?? scrollY + item.top),
        width: item.width,
        height: item.height,
      },
      position: item.position,
      stickTop: item.stickTop,
      shownFrom: from,
      shownUntil: until,
    }));
    return [...layers, ...standIns];
  } finally {
    await cdp.send('Emulation.setDefaultBackgroundColorOverride', {}).catch(() => {});
    await page
      .evaluate(
        ({ id, marks }) => {
          document.getElementById(id)?.remove();
          for (const mark of marks)
            for (const el of Array.from(document.querySelectorAll(`[${mark}]`))) el.removeAttribute(mark);
        },
        { id: STYLE_ID, marks: [END_MARK, PIN_ID] },
      )
      .catch(() => {});
    if (!atTop) {
      await scrollWatched(page, 0).catch(() => 0);
      await finishAnimations(page, SCROLLED_BUDGET).catch(() => undefined);
    }
    if (gate === 'frozen' || gate === 'reveal' || gate === 'top')
      await setPageGate(page, gate).catch(() => {});
    else
      await page
        .evaluate((key) => {
          delete (window as unknown as Record<symbol, unknown>)[Symbol.for(key)];
        }, GATE)
        .catch(() => {});
  }
}

/**
 * The scroll data of a page already settled and shot at the top: `pageHeight` is the height of
 * that shot (CSS px). The page without its pinned parts is shot as it is at the top (the still's
 * state); the pinned parts as they are scrolled down, at a few stops (every frame after the
 * first is scrolled).
 * Leaves the page at the top, its gate as it found it.
 */
export async function captureScroll(
  page: Page,
  cdp: CDPSession,
  options: { target: ScrollTargetOption; pageHeight: number; viewport: { width: number; height: number } },
): Promise<ScrollCapture> {
  const endY = await scrollEnd(page, options.target, options.pageHeight, options.viewport.height);
  if (endY <= 0) return { endY, layers: [] };
  const atTop = await page.evaluate(markPinned, {
    mark: MARK,
    idAttr: PIN_ID,
    scrolled: false,
    max: MAX_LAYERS,
  });
  const stickyAtTop: { item: FoundPinned; png: Buffer }[] = [];
  let unpinnedPng: Buffer | undefined;
  try {
    if (atTop.length > 0) {
      // The page without them.
      await page.evaluate(
        ({ id, mark }) => {
          const style = document.createElement('style');
          style.id = id;
          style.textContent = `[${mark}] { visibility: hidden !important; }`;
          document.head.append(style);
        },
        { id: STYLE_ID, mark: MARK },
      );
      const unpinned = await captureScreenshot(cdp, {
        format: 'png',
        optimizeForSpeed: true,
        captureBeyondViewport: true,
        clip: { x: 0, y: 0, width: options.viewport.width, height: options.pageHeight, scale: 1 },
      });
      unpinnedPng = Buffer.from(unpinned.data, 'base64');
      // The sticky parts as they look at the top, each on a transparent page: stand-ins where a
      // stop does not show them (shootScrolled).
      const sticky = atTop.filter((item) => item.position === 'sticky');
      if (sticky.length > 0) {
        await page.evaluate(showOnly, { id: STYLE_ID, mark: MARK });
        await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
        for (const item of sticky) {
          const shot = await captureScreenshot(cdp, {
            format: 'png',
            captureBeyondViewport: true,
            clip: { x: item.x, y: item.top, width: item.width, height: item.height, scale: 1 },
          });
          stickyAtTop.push({ item, png: Buffer.from(shot.data, 'base64') });
        }
        await cdp.send('Emulation.setDefaultBackgroundColorOverride', {});
      }
      await page.evaluate((id) => document.getElementById(id)?.remove(), STYLE_ID);
    }
    const layers = await shootScrolled(page, cdp, endY, options.viewport.height, stickyAtTop);
    return { endY, ...(unpinnedPng ? { unpinnedPng } : {}), layers };
  } finally {
    await cdp.send('Emulation.setDefaultBackgroundColorOverride', {}).catch(() => {});
    await page
      .evaluate(
        ({ id, mark }) => {
          document.getElementById(id)?.remove();
          for (const el of Array.from(document.querySelectorAll(`[${mark}]`))) el.removeAttribute(mark);
        },
        { id: STYLE_ID, mark: MARK },
      )
      .catch(() => {});
  }
}
