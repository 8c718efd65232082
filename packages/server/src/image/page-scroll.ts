/**
 * The scroll data of a capture (issue 37), plain data shared by the browser stage, which
 * produces it (browser/scroll-capture.ts), and the motion stage, which draws frames from it
 * (compose/motion-stage.ts): where a scroll ends, the page without its pinned parts, and those
 * parts shot on their own.
 */

/** Where a scroll ends (the resolved `motion.scroll_to`). */
export type ScrollTargetOption =
  | { kind: 'end' }
  | { kind: 'pixels'; y: number }
  | { kind: 'selector'; selector: string };

/** A part of the page that stays on screen while it scrolls, shot on its own. */
export interface PinnedLayer {
  /** PNG with transparency around the element, `rect` in size (device pixels). */
  png: Buffer;
  /**
   * CSS px: x, width and height as on screen once scrolled; `top`: a fixed part's top in the
   * viewport, a sticky part's top in the document (where it sits before it sticks).
   */
  rect: { x: number; top: number; width: number; height: number };
  /** `fixed`: on screen at `rect.top` always; `sticky`: at max(stickTop, rect.top - scroll). */
  position: 'fixed' | 'sticky';
  /** CSS px from the top of the viewport a sticky element stops at. */
  stickTop: number;
  /**
   * The scroll positions (CSS px) this shot of it stands for: drawn in a frame at `y` when
   * `shownFrom < y <= shownUntil` (the part is shot at several positions down the page).
   */
  shownFrom: number;
  shownUntil: number;
}

/** The scroll data of a capture: its end, and the page without its pinned parts when it has any. */
export interface ScrollCapture {
  /** CSS px the page scrolls by: 0 .. page height - viewport height. */
  endY: number;
  /** The full page shot again with its pinned parts at the top hidden (absent: it has none). */
  unpinnedPng?: Buffer;
  layers: PinnedLayer[];
}
