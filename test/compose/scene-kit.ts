import sharp from 'sharp';
import { afterAll, beforeAll } from 'vitest';
import type { BrowserPool } from '../../packages/server/src/browser/browser-pool.ts';
import { resolveStyle, type StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import {
  browserRenderer,
  type ComposeSceneInput,
  type ComposeStage,
  createComposeCache,
  createComposeStage,
  loadBrowserFonts,
  loadFontCatalogue,
  rasterRenderer,
  type ShotFrame,
} from '../../packages/server/src/compose/index.ts';
import type { PageRunner } from '../../packages/server/src/compose/renderers/browser/render-in-browser.ts';
import { decodeToRaw } from '../../packages/server/src/encode/decode-image.ts';
import type { RawImage, RawPixels } from '../../packages/server/src/image/raw-image.ts';
import { testPool } from '../support/capture-test-kit.ts';
import { fakeAppScreenshot, fakeMobileScreenshot } from '../support/fake-screenshot.ts';
import { DEVICE_PAGE } from './device-gallery-scenes.ts';

/** The pages a scene's shots show: a phone's page, a laptop's (DPR 2 at half size), a window's. */
export type ShotPage = 'mobile' | 'desktop' | 'window' | 'mobile-dark';

/** A scene of the gallery: the look (a request's styling fields) and its shots. */
export interface SceneCase {
  request: StyleRequest;
  scene: Omit<ComposeSceneInput, 'shots'>;
  shots: { page: ShotPage; frame: Partial<ShotFrame> }[];
}

export interface SceneKit {
  /** The scene composed by the compose stage in one mode (`satori` or `browser`). */
  compose(c: SceneCase, mode: 'satori' | 'browser'): Promise<RawImage>;
}

async function png(pixels: RawPixels): Promise<Buffer> {
  return sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: pixels.channels as 3 | 4 },
  })
    .png()
    .toBuffer();
}

/** Darkens a fake page into its dark-mode look (a different page for the dark shot of a pair). */
async function darkened(pixels: RawPixels): Promise<RawPixels> {
  const { data, info } = await sharp(pixels.data, {
    raw: { width: pixels.width, height: pixels.height, channels: pixels.channels as 3 | 4 },
  })
    .negate({ alpha: false })
    .modulate({ hue: 180 })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 4 };
}

/**
 * The compose stage as app.ts wires it (raster renderer, browser renderer on a one-page pool),
 * with fake pages for the shots; `browser: false` skips the browser (raster-only tests).
 */
export function useSceneKit(options: { browser?: boolean } = {}): SceneKit {
  const kit = {} as SceneKit;
  let pool: BrowserPool | undefined;
  beforeAll(async () => {
    const fonts = await loadFontCatalogue();
    const cache = createComposeCache();
    const pages: Record<ShotPage, { png: Buffer; dpr: number }> = {
      mobile: { png: await png(await fakeMobileScreenshot(402, 812)), dpr: 1 },
      'mobile-dark': { png: await png(await darkened(await fakeMobileScreenshot(402, 812))), dpr: 1 },
      desktop: { png: await png(await fakeAppScreenshot(864, 540)), dpr: 0.5 },
      window: { png: await png(await fakeAppScreenshot(720, 450)), dpr: 0.5 },
    };
    let browser: ReturnType<typeof browserRenderer> | undefined;
    if (options.browser !== false) {
      pool = testPool({ concurrency: 1, captureTimeoutMs: 120_000 });
      const browserFonts = await loadBrowserFonts();
      const withPage: PageRunner = (fn) => (pool as BrowserPool).run((lease) => fn(lease.page, lease.cdp));
      browser = browserRenderer({ withPage, fonts: async () => browserFonts, cache: createComposeCache() });
    }
    const stage: ComposeStage = createComposeStage({
      fonts: async () => fonts,
      decode: decodeToRaw,
      loadBackground: async () => undefined,
      renderers: {
        satori: rasterRenderer({ fonts: async () => fonts, cache }),
        ...(browser ? { browser } : {}),
      },
    });
    kit.compose = async (c, mode) => {
      const style = resolveStyle({ ...c.request, compose_mode: mode });
      const shots = c.shots.map((shot) => ({
        frame: {
          device: shot.frame.device ?? null,
          device_color: shot.frame.device_color ?? null,
          device_scale: shot.frame.device_scale ?? 1,
          frame_ratio: shot.frame.frame_ratio ?? 'auto',
        },
        screenshot: { ...pages[shot.page], ...DEVICE_PAGE },
      }));
      const first = shots[0] as (typeof shots)[number];
      const composed = await stage(
        { style, screenshot: first.screenshot, scene: { ...c.scene, shots } },
        AbortSignal.timeout(240_000),
      );
      return composed.image;
    };
  });
  afterAll(async () => {
    await pool?.close();
  });
  return kit;
}
