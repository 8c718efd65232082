import { beforeAll } from 'vitest';
import { resolveStyle, type StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { pageTopColor, pageTopRows } from '../../packages/server/src/compose/page-top-color.ts';
import {
  type ComposeCache,
  createComposeCache,
  renderRaster,
} from '../../packages/server/src/compose/renderers/raster/render-raster.ts';
import { buildScene, type ScreenshotInfo } from '../../packages/server/src/compose/scene.ts';
import {
  type FontCatalogue,
  loadFontCatalogue,
} from '../../packages/server/src/compose/text/font-catalogue.ts';
import type { RawImage, RawPixels } from '../../packages/server/src/image/raw-image.ts';
import { fakeAppScreenshot, fakeMobileScreenshot } from '../support/fake-screenshot.ts';
import { DEVICE_PAGE } from './device-gallery-scenes.ts';

export interface RasterKit {
  fonts: FontCatalogue;
  cache: ComposeCache;
  /** The 720x450 fake app screenshot every gallery starts from. */
  shot: RawPixels;
  /** resolveStyle -> buildScene -> renderRaster, on `input` (default: the fake screenshot). */
  render(request: StyleRequest, input?: RawPixels, info?: Partial<ScreenshotInfo>): Promise<RawImage>;
}

/**
 * The shared set-up of the raster image tests: fonts, a compose cache and the fake screenshot,
 * loaded once in the calling describe block's beforeAll.
 */
export function useRasterKit(): RasterKit {
  const kit = {} as RasterKit;
  beforeAll(async () => {
    kit.fonts = await loadFontCatalogue();
    kit.cache = createComposeCache();
    kit.shot = await fakeAppScreenshot(720, 450);
    kit.render = (request, input = kit.shot, info = {}) => {
      const scene = buildScene(
        resolveStyle(request),
        { ...input, ...info },
        { measurer: kit.fonts.measurer },
      );
      return renderRaster(scene, input, { fonts: kit.fonts, cache: kit.cache });
    };
  });
  return kit;
}

/** The screenshot a device gallery scene is drawn on, as device-gallery-scenes.ts describes. */
export async function deviceInput(
  kind: 'mobile' | 'desktop' | 'window',
  windowShot: RawPixels,
): Promise<{ input: RawPixels; info: Partial<ScreenshotInfo> }> {
  // mobile: the iPhone's default 402x812 page area; desktop: a 1728x1080 capture (the MacBook's
  // default viewport) at DPR 2 shown at half size; window: a 1440x900 page at DPR 1.
  const input =
    kind === 'mobile'
      ? await fakeMobileScreenshot(402, 812)
      : kind === 'desktop'
        ? await fakeAppScreenshot(864, 540)
        : windowShot;
  const dpr = kind === 'mobile' ? 1 : 0.5;
  // The colour the compose step samples for the device's status or menu bar.
  const topColor = pageTopColor(input, pageTopRows(dpr));
  return { input, info: { dpr, topColor, ...DEVICE_PAGE } };
}
