import captureWebsite, { type Options as CaptureWebsiteOptions } from 'capture-website';
import { chromium, type Browser as PlaywrightBrowser } from 'playwright-core';
import puppeteer, { type Browser as PuppeteerBrowser } from 'puppeteer';
import { screenshotHadNoFrame } from '../packages/server/src/chromium/capture-screenshot.ts';
import { resolveChromiumPath } from '../packages/server/src/config/browser-section.ts';
import { TEST_CHROMIUM_PATH } from '../test/support/capture-test-kit.ts';

/**
 * The Chromium the baselines drive: Debian's `chromium` (`/usr/bin/chromium`), what a developer's
 * hand-written Playwright script on this machine launches (performance.md); never a downloaded
 * build. `BENCH_BASELINE_CHROMIUM_PATH` moves them (e.g. onto the headless shell) for a comparison.
 */
export const BASELINE_CHROMIUM_PATH = process.env.BENCH_BASELINE_CHROMIUM_PATH ?? TEST_CHROMIUM_PATH;

/** The Chromium Vitrine drives: its own default (`auto`) unless `VITRINE_CHROMIUM_PATH` says otherwise. */
export const VITRINE_CHROMIUM_PATH = resolveChromiumPath(process.env.VITRINE_CHROMIUM_PATH ?? 'auto');

export interface Viewport {
  width: number;
  height: number;
}

export interface Baseline {
  name: string;
  /** `settleMs`: a wait after `load` before the shot (the pixel check's reference, not timed). */
  capture(url: string, options?: { fullPage?: boolean; settleMs?: number }): Promise<Uint8Array>;
  close(): Promise<void>;
}

/**
 * bare-playwright (performance.md): one warm Chromium; per capture newContext + newPage +
 * goto(load) + page.screenshot(png) + close. What a developer writes by hand.
 */
export async function barePlaywright(viewport: Viewport): Promise<Baseline> {
  const browser: PlaywrightBrowser = await chromium.launch({
    executablePath: BASELINE_CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  return {
    name: 'bare-playwright',
    async capture(url, { fullPage = false, settleMs = 0 } = {}) {
      const context = await browser.newContext({ viewport });
      try {
        const page = await context.newPage();
        await page.goto(url, { waitUntil: 'load' });
        if (settleMs > 0) await page.waitForTimeout(settleMs);
        try {
          return await page.screenshot({ type: 'png', fullPage });
        } catch (error) {
          // A second attempt when Chromium had no frame ready, as the service's own capture does.
          if (!screenshotHadNoFrame(error)) throw error;
          return await page.screenshot({ type: 'png', fullPage });
        }
      } finally {
        await context.close();
      }
    },
    close: () => browser.close(),
  };
}

/**
 * capture-website's options for a fair comparison: the same viewport at DPR 1 (its default is 2)
 * and PNG. `blockAds: false` because its ad blocker downloads filter lists from the internet,
 * and benchmarks only talk to loopback. Everything else is its default (networkidle2 wait).
 */
function captureWebsiteOptions(viewport: Viewport, fullPage: boolean): CaptureWebsiteOptions {
  return {
    width: viewport.width,
    height: viewport.height,
    scaleFactor: 1,
    type: 'png',
    fullPage,
    blockAds: false,
    launchOptions: { executablePath: BASELINE_CHROMIUM_PATH, args: ['--no-sandbox'] },
  };
}

/** capture-website as a user calls it: its default launches a browser per call. */
export function captureWebsitePerCall(viewport: Viewport): Baseline {
  return {
    name: 'capture-website',
    capture: (url, { fullPage = false } = {}) =>
      captureWebsite.buffer(url, captureWebsiteOptions(viewport, fullPage)),
    close: async () => undefined,
  };
}

/**
 * capture-website with one warm browser, through its own (undocumented, used by its tests)
 * `_browser` and `_keepAlive` options: a page per capture in the browser's default context.
 */
export async function captureWebsiteWarm(viewport: Viewport): Promise<Baseline> {
  const browser: PuppeteerBrowser = await puppeteer.launch({
    executablePath: BASELINE_CHROMIUM_PATH,
    args: ['--no-sandbox'],
  });
  return {
    name: 'capture-website-warm',
    capture: (url, { fullPage = false } = {}) =>
      captureWebsite.buffer(url, {
        ...captureWebsiteOptions(viewport, fullPage),
        ...({ _browser: browser, _keepAlive: true } as object),
      }),
    close: () => browser.close(),
  };
}
