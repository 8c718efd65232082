import { CAPTURE_LIMITS } from '@vitrine/contract';
import type { CDPSession } from 'playwright-core';
import { collectPageSignals } from '../ai/collect-page-signals.ts';
import { captureScreenshot } from '../chromium/capture-screenshot.ts';
import { PAGE_CAPTURE_DEFAULTS } from '../config/page-capture-defaults.ts';
import { AppError } from '../errors/app-error.ts';
import { sleep } from './abort-race.ts';
import type { BlockLists } from './block-lists.ts';
import type { BrowserPool, PageLease, RunOptions } from './browser-pool.ts';
import { captureFailed, navigationError, renderFailed, targetUnreachable } from './capture-errors.ts';
import { type ElementChooser, resolveElement } from './element/resolve-element.ts';
import { animationWarnings } from './finish-animations.ts';
import { serveHtmlDocument } from './html-document.ts';
import { watchMainFrameRefusal } from './main-frame-refusal.ts';
import { runPageActions } from './page-actions.ts';
import { applyPageAuth, type PageAuth } from './page-auth.ts';
import type { PageCapture, PageCaptureOptions } from './page-capture-options.ts';
import { applyPageIdentity, mediaFeatures } from './page-identity.ts';
import { readPageMetadata } from './page-metadata.ts';
import { captureStylesheet, elementBox, settlePage } from './page-stabilisation.ts';
import { installRequestBlocking, parseBlockEntries } from './request-blocking.ts';
import { revealFullPage } from './reveal-full-page.ts';
import { type ScriptActivity, watchScriptActivity } from './script-activity.ts';
import { captureScroll } from './scroll-capture.ts';
import {
  SETTLE_AT_TOP_BUDGET,
  type SettledPage,
  scriptWarnings,
  settleAfterLoad,
  startSettling,
} from './settle-after-load.ts';

/** Service-wide settings of the recipe (config/browser-section.ts and start-up state). */
export interface PageCaptureSettings {
  navigationTimeoutMs: number;
  /** The lists behind block categories; required only when a request names a category. */
  blockLists?: () => Promise<BlockLists>;
  /** Longest wait for a `wait_for` selector; default PAGE_CAPTURE_DEFAULTS (config/). */
  selectorWaitMs?: number;
  /** Longest wait for web fonts; default PAGE_CAPTURE_DEFAULTS. */
  fontWaitMs?: number;
  /** Longest wait for images still loading after the full-page scroll; default PAGE_CAPTURE_DEFAULTS. */
  lazyImageWaitMs?: number;
  /** Largest capture in device pixels (width x height); default PAGE_CAPTURE_DEFAULTS. */
  maxCapturePixels?: number;
  /** Picks among the best candidates for `element` (the AI provider); absent: built-in scoring. */
  chooseElement?: ElementChooser;
}

/** The settings given (an explicit undefined does not hide a default). */
function definedOf(settings: PageCaptureSettings): Partial<PageCaptureSettings> {
  return Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== undefined));
}

interface Clip {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Applies viewport, DPR, mobile, touch, user agent and colour scheme to a prepared page through CDP. */
export async function emulate(cdp: CDPSession, options: PageCaptureOptions): Promise<void> {
  const { width, height } = options.viewport;
  await Promise.all([
    cdp.send('Emulation.setDeviceMetricsOverride', {
      width,
      height,
      deviceScaleFactor: options.deviceScaleFactor,
      mobile: options.isMobile,
      screenWidth: width,
      screenHeight: height,
    }),
    cdp.send('Emulation.setTouchEmulationEnabled', {
      enabled: options.hasTouch,
      ...(options.hasTouch ? { maxTouchPoints: 5 } : {}),
    }),
    cdp.send('Emulation.setEmulatedMedia', {
      media: 'screen',
      features: mediaFeatures(options),
    }),
    options.userAgent === undefined
      ? Promise.resolve()
      : cdp.send('Emulation.setUserAgentOverride', { userAgent: options.userAgent }),
  ]);
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { width: number; height: number } {
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

async function waitForTarget(lease: PageLease, options: PageCaptureOptions, selectorWaitMs: number) {
  if (typeof options.waitFor === 'number') {
    if (options.waitFor > 0) await sleep(options.waitFor, lease.signal);
    return;
  }
  if (typeof options.waitFor !== 'string') return;
  try {
    await lease.page.waitForSelector(options.waitFor, { state: 'visible', timeout: selectorWaitMs });
  } catch (error) {
    if (lease.signal.aborted) throw lease.signal.reason;
    throw captureFailed(
      'selector_not_found',
      `wait_for: no visible element matched "${options.waitFor}" within ${selectorWaitMs} ms`,
      { cause: error },
    );
  }
}

async function selectorClip(lease: PageLease, selector: string): Promise<Clip> {
  const box = await elementBox(lease.page, selector);
  if (box.found) return { x: box.x, y: box.y, width: box.width, height: box.height };
  const why = {
    missing: 'no element matched',
    invalid: 'is not a valid CSS selector',
    empty: 'the element has no visible box',
  };
  throw captureFailed('selector_not_found', `selector "${selector}": ${why[box.why]}`);
}

/**
 * The recipe for a stable screenshot of one page (docs/api-decisions.md section 4): emulation, blocking, `load`,
 * the requested wait, finished animations (finish-animations.ts), fonts, injected and hiding CSS,
 * lazy content and scroll reveals for a full page; then one CDP `Page.captureScreenshot` with
 * `optimizeForSpeed` (PNG, decoded and encoded once downstream). Timings per phase: context,
 * navigation, waits, capture. `auth` (an auth profile's cookies and localStorage) is loaded into
 * the context before the navigation.
 */
export async function capturePage(
  lease: PageLease,
  options: PageCaptureOptions,
  settings: PageCaptureSettings,
  auth?: PageAuth,
): Promise<PageCapture> {
  const { page, cdp } = lease;
  const timings: Record<string, number> = {};
  const warnings: string[] = [];
  let mark = performance.now();
  const phase = (name: string) => {
    const now = performance.now();
    timings[name] = Math.round((timings[name] ?? 0) + now - mark);
    mark = now;
  };
  timings.context = Math.round(lease.contextMs);

  const rules = parseBlockEntries(options.block);
  const lists = rules.categories.size > 0 ? await settings.blockLists?.() : undefined;
  if (rules.categories.size > 0 && !lists) {
    throw new AppError('internal_error', 'Block lists are not configured');
  }
  if (auth) await applyPageAuth(lease.context, page, auth);
  await Promise.all([emulate(cdp, options), installRequestBlocking(page, rules, lists)]).catch(
    (error: unknown) => {
      throw renderFailed(error);
    },
  );
  // After `emulate`: the language keeps the user agent it set.
  if (options.identity) await applyPageIdentity(lease, options, options.identity);
  if (options.html)
    await serveHtmlDocument(page, options.html).catch((error: unknown) => {
      throw renderFailed(error);
    });
  const scripts = watchScriptActivity(page);
  phase('context');
  try {
    return await loadAndShoot(lease, options, settings, { rules, lists, scripts, timings, warnings, phase });
  } finally {
    scripts.stop();
  }
}

/** The page's state a capture carries from its set-up to its shot. */
interface CaptureRun {
  rules: ReturnType<typeof parseBlockEntries>;
  lists: BlockLists | undefined;
  scripts: ScriptActivity;
  timings: Record<string, number>;
  warnings: string[];
  phase: (name: string) => void;
}

/** The warnings of a page that did not settle (clock, requests, scripts). */
function settleWarnings(settled: SettledPage): string[] {
  return [...animationWarnings(settled), ...scriptWarnings(settled)];
}

async function loadAndShoot(
  lease: PageLease,
  options: PageCaptureOptions,
  settings: PageCaptureSettings,
  run: CaptureRun,
): Promise<PageCapture> {
  const { page, cdp, signal } = lease;
  const { rules, lists, scripts, timings, warnings, phase } = run;
  const limits = { ...PAGE_CAPTURE_DEFAULTS, ...definedOf(settings) };

  const refusal = watchMainFrameRefusal(page);
  try {
    await page.goto(options.url, { waitUntil: 'load', timeout: settings.navigationTimeoutMs });
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    // A redirect into a refused https target fails the navigation itself: same answer as below.
    throw refusal.refused() ? targetUnreachable(error) : navigationError(error, settings.navigationTimeoutMs);
  }
  // The page (or a redirect) sent the top-level document to the proxy's refusal: nothing of the
  // target is on screen, so there is nothing to charge for.
  if (refusal.refused()) throw targetUnreachable();
  const loadedAt = performance.now();
  phase('navigation');
  // A full page (or an element search) scrolls through the page and rasters all of it: a spare
  // renderer starting meanwhile made the 10,000 px page's shot ~200 ms slower on two cores
  // (bench, P7). Its spare is prepared after the shot, while Node encodes.
  const largeShot = options.fullPage || options.element !== undefined;
  if (!largeShot) lease.loaded();

  try {
    await waitForTarget(lease, options, limits.selectorWaitMs);
    if (options.actions) {
      await runPageActions(page, options.actions, { signal, chooseElement: settings.chooseElement });
      phase('actions');
    }
    const maxCss = CAPTURE_LIMITS.fullPageMaxCssPx;
    const fontWaitMs = limits.fontWaitMs;
    // `element` describes any part of the page: lazy sections must exist before candidates are
    // listed, so it is prepared like a full page.
    const progress = startSettling(loadedAt);
    const settle = () => settleAfterLoad(page, scripts, progress, { signal });
    let revealedHeight: number | undefined;
    if (largeShot) {
      const revealed = await revealFullPage(
        page,
        {
          maxCssPx: maxCss,
          fontWaitMs,
          lazyImageWaitMs: limits.lazyImageWaitMs,
          growthPasses: 3,
        },
        settle,
        () =>
          settleAfterLoad(
            page,
            scripts,
            startSettling(performance.now(), SETTLE_AT_TOP_BUDGET),
            { signal },
            SETTLE_AT_TOP_BUDGET,
          ),
      );
      warnings.push(...settleWarnings(revealed.settled));
      revealedHeight = revealed.revealedHeight;
    } else {
      warnings.push(...settleWarnings(await settle()));
    }
    const removeSelectors =
      rules.categories.has('cookie-banners') && lists ? lists.cookieBannerSelectors : [];
    const css = captureStylesheet({
      injectCss: options.injectCss,
      hideSelectors: options.hideSelectors,
      removeSelectors,
    });
    const { height: pageHeight, title } = await settlePage(page, css, fontWaitMs, {
      stableHeight: options.fullPage,
    });
    phase('waits');

    let clip: Clip | undefined;
    let element: PageCapture['element'];
    if (options.element !== undefined) {
      element = await resolveElement(page, options.element, {
        chooseElement: settings.chooseElement,
        signal,
      });
      clip = await selectorClip(lease, element.selector);
      // The box shot (after scrolling it into view) is the one reported.
      element.bbox = { x: clip.x, y: clip.y, width: clip.width, height: clip.height };
      phase('element');
    } else if (options.selector !== undefined) {
      clip = await selectorClip(lease, options.selector);
    } else if (options.fullPage) {
      let height = pageHeight;
      // A page that never settled and grew below what the scroll had revealed is cut there.
      if (revealedHeight !== undefined && pageHeight > revealedHeight + 1) {
        height = revealedHeight;
        warnings.push(
          `The page kept adding content (${Math.round(pageHeight)} px tall at the shot); captured the first ${Math.round(revealedHeight)} px it had shown`,
        );
      }
      clip = { x: 0, y: 0, width: options.viewport.width, height: Math.max(height, options.viewport.height) };
    }
    if (clip && clip.height > maxCss) {
      warnings.push(`Full page height cut at ${maxCss} px (the page is ${Math.round(clip.height)} px tall)`);
      clip.height = maxCss;
    }
    const cssWidth = clip?.width ?? options.viewport.width;
    const cssHeight = clip?.height ?? options.viewport.height;
    const devicePixels = cssWidth * cssHeight * options.deviceScaleFactor ** 2;
    const maxPixels = limits.maxCapturePixels;
    if (devicePixels > maxPixels) {
      throw captureFailed(
        'too_large',
        `The capture would be ${Math.round(devicePixels / 1e6)} megapixels; the limit is ${Math.round(maxPixels / 1e6)}`,
      );
    }
    const shot = await captureScreenshot(cdp, {
      format: 'png',
      optimizeForSpeed: true,
      captureBeyondViewport: clip !== undefined,
      ...(clip ? { clip: { ...clip, scale: 1 } } : {}),
    });
    // A meta refresh or a script may have moved the page onto a refusal while it settled.
    if (refusal.refused()) throw targetUnreachable();
    const png = Buffer.from(shot.data, 'base64');
    phase('capture');
    const scroll =
      options.scroll && options.fullPage && clip
        ? await captureScroll(page, cdp, {
            target: options.scroll,
            pageHeight: clip.height,
            viewport: options.viewport,
          })
        : undefined;
    if (scroll) phase('scroll');
    if (largeShot) lease.loaded();
    // The URL at the shot: a timer of the page may have navigated while it settled.
    const shotUrl = page.url();
    const signals = options.collectSignals ? await page.evaluate(collectPageSignals) : undefined;
    if (signals) phase('signals');
    const metadata = options.metadata ? await readPageMetadata(page, signals) : undefined;
    if (metadata === null)
      warnings.push("The page's metadata could not be read: it answered in an unexpected form");
    return {
      png,
      ...pngSize(png),
      warnings,
      timings,
      finalUrl: shotUrl,
      title,
      ...(element ? { element } : {}),
      ...(signals ? { signals } : {}),
      ...(metadata ? { metadata } : {}),
      ...(scroll ? { scroll } : {}),
    };
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw renderFailed(error);
  }
}

/** Runs `capturePage` on a pooled page: the one call the render pipeline needs. */
export function capture(
  pool: BrowserPool,
  options: PageCaptureOptions,
  settings: PageCaptureSettings,
  runOptions: RunOptions = {},
): Promise<PageCapture> {
  return pool.run((lease) => capturePage(lease, options, settings), runOptions);
}
