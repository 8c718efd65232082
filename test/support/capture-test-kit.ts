import os from 'node:os';
import { type Browser, chromium } from 'playwright-core';
import sharp from 'sharp';
import {
  type BrowserPool,
  type BrowserPoolOptions,
  createBrowserPool,
} from '../../packages/server/src/browser/browser-pool.ts';
import {
  type PageCaptureOptions,
  plainPageOptions,
} from '../../packages/server/src/browser/page-capture-options.ts';
import { resolveChromiumPath } from '../../packages/server/src/config/browser-section.ts';

/** Debian's Chromium, which the tests drive (never a downloaded build). */
export const TEST_CHROMIUM_PATH = '/usr/bin/chromium';

/** A bare Playwright browser on Debian's Chromium, for tests that drive a web page themselves. */
export function launchTestChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: ['--no-sandbox', ...args] });
}

/**
 * The Chromium the service's capture pool runs by default (`VITRINE_CHROMIUM_PATH=auto`: the
 * headless shell when installed), so the capture tests drive what the product drives.
 */
export const CAPTURE_CHROMIUM_PATH = resolveChromiumPath('auto');

/** A pool on the service's default Chromium without the egress proxy (the SSRF suite covers proxying). */
export function testPool(overrides: Partial<BrowserPoolOptions> = {}): BrowserPool {
  return createBrowserPool({
    executablePath: CAPTURE_CHROMIUM_PATH,
    concurrency: Math.min(2, os.availableParallelism()),
    queueLimit: 32,
    recycleAfter: 200,
    captureTimeoutMs: 30_000,
    ...overrides,
  });
}

export function pageOptions(url: string, overrides: Partial<PageCaptureOptions> = {}): PageCaptureOptions {
  return plainPageOptions(url, overrides);
}

export interface Pixels {
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number];
}

/** Decodes a PNG to RGB for pixel checks. */
export async function decode(png: Buffer): Promise<Pixels> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at(x, y) {
      const i = (y * info.width + x) * info.channels;
      return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
    },
  };
}

/** Whether a pixel is close to a colour (PNG from CDP is lossless; tolerance covers anti-aliasing). */
export function near(
  actual: [number, number, number],
  expected: [number, number, number],
  tolerance = 12,
): boolean {
  return actual.every((v, i) => Math.abs(v - (expected[i] ?? 0)) <= tolerance);
}
