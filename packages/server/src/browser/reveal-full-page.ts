import type { Page } from 'playwright-core';
import { scrollState, setPageGate } from './finish-animations.ts';
import { keepRevealedBelowFold, recordChangesOnReturn } from './keep-revealed.ts';
import { awaitFonts, returnToTop, scrollToBottom } from './page-stabilisation.ts';
import type { SettledPage } from './settle-after-load.ts';

/** Bounds of the way through a full page (docs/decisions.md, "Settled on what the page does"). */
export interface RevealLimits {
  /** Tallest page scrolled through, CSS px (the full page's own limit). */
  maxCssPx: number;
  fontWaitMs: number;
  lazyImageWaitMs: number;
  /** Scrolls through content the page added after the first scroll (a feed, a chunk's sections). */
  growthPasses: number;
}

/** The page as a full-page capture leaves it: at the top, settled, and what of it was revealed. */
export interface RevealedPage {
  /** The settling at the bottom (and through any growth). */
  settled: SettledPage;
  /**
   * For a page that kept growing or animating: how far down it was revealed (CSS px). Content it
   * added below that after the last scroll was never in view, so its reveals never ran; the
   * shot stops there.
   */
  revealedHeight: number | undefined;
}

/**
 * Prepares a full page (or an `element` search) for its shot:
 * 1. settles it and, when it watches scrolling, scrolls through it in `reveal` mode, again for
 *    every part it adds meanwhile (at most `growthPasses` times), settling after each;
 * 2. returns to the top in `top` mode: the page sees that scroll, settles again, and what its
 *    scroll handlers changed below the first screen is put back (keep-revealed.ts);
 * 3. freezes it: from then on the page sees no scroll, resize or intersection (a page that was
 *    not scrolled through is left as it is: nothing of it watches scrolling).
 * `settle` runs one settling (settle-after-load.ts); `settleAtTop` the one after the return.
 */
export async function revealFullPage(
  page: Page,
  limits: RevealLimits,
  settle: () => Promise<SettledPage>,
  settleAtTop: () => Promise<SettledPage>,
): Promise<RevealedPage> {
  let settled: SettledPage | undefined;
  let revealedBottom = 0;
  let scrolled = false;
  let grew = false;
  for (let pass = 0; ; pass += 1) {
    // Before the first settling the page is asked; after, its settling tells.
    const { watches, height } = settled ? settled.scroll : await scrollState(page);
    const more = watches && height > revealedBottom + 1 && revealedBottom < limits.maxCssPx;
    if (settled && !more) break;
    if (settled && pass > limits.growthPasses) {
      grew = true;
      break;
    }
    if (more) {
      if (!scrolled) {
        // Fonts first: the page's height, and so the scroll, depends on them.
        await awaitFonts(page, limits.fontWaitMs);
        await setPageGate(page, 'reveal');
        scrolled = true;
      }
      revealedBottom = await scrollToBottom(page, limits.maxCssPx);
    }
    settled = await settle();
  }
  if (!settled) throw new Error('revealFullPage: the page was never settled');
  if (scrolled) {
    await recordChangesOnReturn(page);
    await returnToTop(page, limits.lazyImageWaitMs);
    await settleAtTop();
    await keepRevealedBelowFold(page);
  }
  const unsettled = grew || !settled.settled;
  return { settled, revealedHeight: scrolled && unsettled ? revealedBottom : undefined };
}
