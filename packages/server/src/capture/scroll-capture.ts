/**
 * What a scroll video needs from the page besides its full-page shot (issue 37): where the
 * scroll ends, and the parts of the page that stay pinned while it scrolls (fixed headers,
 * sticky bars, a chat button). A full-page shot shows them once, where they are at the top; a
 * browser keeps them on screen. So they are shot on their own (transparent around them), and
 * the page is shot a second time without them; each video frame is the second shot at its
 * scroll position with the pinned parts drawn where the browser would show them.
 */
import type { CDPSession, Page } from 'playwright-core';
import { captureScreenshot } from '../chromium/capture-screenshot.ts';
import { captureFailed } from './capture-errors.ts';

/** Where a scroll ends (the resolved `motion.scroll_to`). */
export type ScrollTargetOption =
  | { kind: 'end' }
  | { kind: 'pixels'; y: number }
  | { kind: 'selector'; selector: string };

/** A part of the page that stays on screen while it scrolls, shot on its own. */
export interface PinnedLayer {
  /** PNG with transparency around the element, `rect` in size (device pixels). */
  png: Buffer;
  /** CSS px: x and width; `top` is where it sits in the document at scroll 0. */
  rect: { x: number; top: number; width: number; height: number };
  /** `fixed`: on screen at `rect.top` always; `sticky`: at max(stickTop, rect.top - scroll). */
  position: 'fixed' | 'sticky';
  /** CSS px from the top of the viewport a sticky element stops at. */
  stickTop: number;
}

/** The scroll data of a capture: its end, and the page without its pinned parts when it has any. */
export interface ScrollCapture {
  /** CSS px the page scrolls by: 0 .. page height - viewport height. */
  endY: number;
  /** The full page shot again with the pinned parts hidden (absent: the page has none). */
  unpinnedPng?: Buffer;
  layers: PinnedLayer[];
}

/** At most this many pinned parts are followed; more would be unusual and slow to shoot. */
const MAX_LAYERS = 12;
const MARK = 'data-vitrine-pinned';
const STYLE_ID = 'vitrine-pinned-style';

interface FoundPinned {
  index: number;
  position: 'fixed' | 'sticky';
  x: number;
  top: number;
  width: number;
  height: number;
  stickTop: number;
}

/** Marks the outermost visible fixed and sticky elements (in the page; must be self-contained). */
function markPinned(args: { mark: string; max: number }): FoundPinned[] {
  const found: FoundPinned[] = [];
  const marked: Element[] = [];
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
    el.setAttribute(args.mark, String(found.length));
    marked.push(el);
    found.push({
      index: found.length,
      position: style.position,
      x: rect.left,
      top: rect.top + window.scrollY,
      width: rect.width,
      height: rect.height,
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
 * The scroll data of a page already settled and shot at the top: `pageHeight` is the height of
 * that shot (CSS px). Leaves the page as it found it.
 */
export async function captureScroll(
  page: Page,
  cdp: CDPSession,
  options: { target: ScrollTargetOption; pageHeight: number; viewport: { width: number; height: number } },
): Promise<ScrollCapture> {
  const endY = await scrollEnd(page, options.target, options.pageHeight, options.viewport.height);
  const found = endY > 0 ? await page.evaluate(markPinned, { mark: MARK, max: MAX_LAYERS }) : [];
  if (found.length === 0) return { endY, layers: [] };
  try {
    // The pinned parts alone, on a transparent page.
    await page.evaluate(
      ({ id, mark }) => {
        const style = document.createElement('style');
        style.id = id;
        style.textContent = `* { visibility: hidden !important; } [${mark}], [${mark}] * { visibility: visible !important; } html, body { background: transparent !important; }`;
        document.head.append(style);
      },
      { id: STYLE_ID, mark: MARK },
    );
    await cdp.send('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
    const layers: PinnedLayer[] = [];
    for (const item of found) {
      const shot = await captureScreenshot(cdp, {
        format: 'png',
        captureBeyondViewport: true,
        clip: { x: item.x, y: item.top, width: item.width, height: item.height, scale: 1 },
      });
      layers.push({
        png: Buffer.from(shot.data, 'base64'),
        rect: { x: item.x, top: item.top, width: item.width, height: item.height },
        position: item.position,
        stickTop: item.stickTop,
      });
    }
    await cdp.send('Emulation.setDefaultBackgroundColorOverride', {});
    // The page without them.
    await page.evaluate(
      ({ id, mark }) => {
        const style = document.getElementById(id);
        if (style) style.textContent = `[${mark}] { visibility: hidden !important; }`;
      },
      { id: STYLE_ID, mark: MARK },
    );
    const unpinned = await captureScreenshot(cdp, {
      format: 'png',
      optimizeForSpeed: true,
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: options.viewport.width, height: options.pageHeight, scale: 1 },
    });
    return { endY, unpinnedPng: Buffer.from(unpinned.data, 'base64'), layers };
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
