import { beforeAll } from 'vitest';
import {
  type FontCatalogue,
  loadFontCatalogue,
} from '../../packages/server/src/compose/renderers/font-catalogue.ts';
import {
  type ComposeCache,
  createComposeCache,
  type RawInput,
  renderRaster,
} from '../../packages/server/src/compose/renderers/raster.ts';
import { resolveStyle, type StyleRequest } from '../../packages/server/src/compose/resolve-style.ts';
import { buildScene, type ScreenshotInfo } from '../../packages/server/src/compose/scene.ts';
import type { RawImage } from '../../packages/server/src/image/raw-image.ts';
import { DEVICE_PAGE } from './device-gallery-scenes.ts';
import { fakeAppScreenshot, fakeMobileScreenshot } from './fake-screenshot.ts';

export interface RasterKit {
  fonts: FontCatalogue;
  cache: ComposeCache;
  /** The 720x450 fake app screenshot every gallery starts from. */
  shot: RawInput;
  /** resolveStyle -> buildScene -> renderRaster, on `input` (default: the fake screenshot). */
  render(request: StyleRequest, input?: RawInput, info?: Partial<ScreenshotInfo>): Promise<RawImage>;
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
  windowShot: RawInput,
): Promise<{ input: RawInput; info: Partial<ScreenshotInfo> }> {
  // desktop: a 1728x1117 capture at DPR 2 shown at half size; window: a 1440x900 page at DPR 1.
  const input =
    kind === 'mobile'
      ? await fakeMobileScreenshot(402, 874)
      : kind === 'desktop'
        ? await fakeAppScreenshot(864, 559)
        : windowShot;
  return { input, info: { dpr: kind === 'mobile' ? 1 : 0.5, ...DEVICE_PAGE } };
}
