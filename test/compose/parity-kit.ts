import { afterAll, beforeAll } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import {
  type ResolvedStyle,
  resolveStyle,
  type StyleRequest,
} from '../../packages/server/src/captures/resolve/resolve-style.ts';
import {
  type BrowserFonts,
  loadBrowserFonts,
} from '../../packages/server/src/compose/renderers/browser/fonts.ts';
import {
  type PageRunner,
  renderInBrowser,
} from '../../packages/server/src/compose/renderers/browser/render-in-browser.ts';
import { createBrowserTextDrawer } from '../../packages/server/src/compose/renderers/browser/text-in-browser.ts';
import { renderRaster } from '../../packages/server/src/compose/renderers/raster/render-raster.ts';
import { buildScene, type ScreenshotInfo } from '../../packages/server/src/compose/scene.ts';
import type { RawImage, RawPixels } from '../../packages/server/src/image/raw-image.ts';
import { testPool } from '../support/capture-test-kit.ts';
import { type RasterKit, useRasterKit } from './raster-kit.ts';

export interface ParityKit extends RasterKit {
  /** The same scene drawn by both compose modes. */
  both(
    request: StyleRequest,
    options?: { mode?: 'composite' | 'inline'; input?: RawPixels; info?: Partial<ScreenshotInfo> },
  ): Promise<{ raster: RawImage; browser: RawImage }>;
  /** The same, from a style already resolved (e.g. the AI step's, which may name a brand's own face). */
  bothResolved(
    style: ResolvedStyle,
    options?: { mode?: 'composite' | 'inline'; input?: RawPixels; info?: Partial<ScreenshotInfo> },
  ): Promise<{ raster: RawImage; browser: RawImage }>;
}

/**
 * The shared set-up of the parity tests: the raster kit plus a one-page browser pool and the
 * browser fonts, opened in the calling describe block and closed after it.
 */
export function useParityKit(): ParityKit {
  const raster = useRasterKit();
  let pool: BrowserPool | undefined;
  let browserFonts: BrowserFonts;
  beforeAll(async () => {
    // A generous deadline: on 2 loaded cores a large browser compose can outlast the default,
    // and a deadline tears the browser down ("The browser exited during the capture").
    pool = testPool({ concurrency: 1, captureTimeoutMs: 120_000 });
    browserFonts = await loadBrowserFonts();
  });
  afterAll(async () => {
    await pool?.close();
  });
  const kit = raster as ParityKit;
  kit.both = (request, options) => kit.bothResolved(resolveStyle(request), options);
  kit.bothResolved = async (style, { mode = 'composite', input = raster.shot, info = {} } = {}) => {
    const scene = buildScene(style, { ...input, ...info }, { measurer: raster.fonts.measurer });
    const withPage: PageRunner = (fn) => pool!.run((lease) => fn(lease.page, lease.cdp));
    const [r, b] = await Promise.all([
      // As app.ts wires it: text in scripts satori cannot shape goes to Chromium.
      renderRaster(scene, input, {
        fonts: raster.fonts,
        cache: raster.cache,
        browserText: createBrowserTextDrawer({ withPage, fonts: async () => browserFonts }),
      }),
      renderInBrowser(scene, input, {
        withPage,
        fonts: browserFonts,
        screenshotMode: mode,
      }),
    ]);
    return { raster: r, browser: b };
  };
  return kit;
}
