import type { PageMetadata } from '@vitrine/contract';
import type { PageSignals } from '../ai/ai-types.ts';
import type { ScrollCapture, ScrollTargetOption } from '../image/page-scroll.ts';
import type { ElementResolution } from './element/resolve-element.ts';
import type { HtmlDocument, PageAction, PageIdentity } from './page-controls.ts';

/**
 * What the capture stage needs to take one screenshot: the request's "Target and browser"
 * fields after defaults and device presets were applied. Produced by the render pipeline,
 * consumed by the browser pool and the page recipe.
 */
export interface PageCaptureOptions {
  /** Absolute http(s) URL, already checked by the network policy. */
  url: string;
  viewport: { width: number; height: number };
  deviceScaleFactor: number;
  userAgent: string | undefined;
  isMobile: boolean;
  hasTouch: boolean;
  /** Extra milliseconds after load, or a CSS selector to wait for (max 10 s). */
  waitFor: number | string | undefined;
  /** Resource types, block-list categories, or URL globs. */
  block: string[];
  injectCss: string | undefined;
  darkMode: boolean;
  fullPage: boolean;
  hideSelectors: string[];
  /** Capture only this element's box. */
  selector: string | undefined;
  /** Capture the element this plain-language description means (resolved in the page). */
  element?: string | undefined;
  /** Also read the page's signals (text, structure, colours, fonts) for the AI step; same load. */
  collectSignals?: boolean;
  /** Steps run after the load and `waitFor`, before the page settles for the shot. */
  actions?: PageAction[];
  /** Headers, locale, time zone, position, reduced motion and cookies of the browser. */
  identity?: PageIdentity;
  /** Render this document (served at `url`, HTML_DOCUMENT_URL) instead of loading a page. */
  html?: HtmlDocument;
  /** Also read the page's metadata for the result. */
  metadata?: boolean;
  /**
   * A scroll video's end (with `fullPage`): the capture also reports where the scroll ends and
   * shoots the parts that stay pinned while it scrolls (scroll-capture.ts).
   */
  scroll?: ScrollTargetOption;
}

/** A plain page of `url`: no device, no waits, nothing blocked or injected (brand, tests). */
export function plainPageOptions(
  url: string,
  overrides: Partial<PageCaptureOptions> = {},
): PageCaptureOptions {
  return {
    url,
    viewport: { width: 800, height: 600 },
    deviceScaleFactor: 1,
    userAgent: undefined,
    isMobile: false,
    hasTouch: false,
    waitFor: undefined,
    block: [],
    injectCss: undefined,
    darkMode: false,
    fullPage: false,
    hideSelectors: [],
    selector: undefined,
    ...overrides,
  };
}

/** The screenshot as Chromium produced it, before composition and the one final encode. */
export interface PageCapture {
  /** PNG bytes from CDP (fast, lightly compressed); decoded by the next stage, never re-encoded as is. */
  png: Buffer;
  /** Device pixels. */
  width: number;
  height: number;
  /** E.g. "Full page height cut at 16384 px". */
  warnings: string[];
  /** Milliseconds per phase: context, navigation, waits, capture. */
  timings: Record<string, number>;
  /** The page's final URL after redirects. */
  finalUrl: string;
  /** The document title (browser frames show it in their tab). */
  title: string;
  /** How `element` was resolved (absent without `element`). */
  element?: ElementResolution;
  /** The page's signals, when `collectSignals` asked for them. */
  signals?: PageSignals;
  /** The page's metadata, when `metadata` asked for it. */
  metadata?: PageMetadata;
  /** A scroll video's data, when `scroll` asked for it. */
  scroll?: ScrollCapture;
}
