import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Scene, SceneText } from '../../scene-types.ts';
import type { ComposeCache } from '../compose-cache.ts';
import type { RawImage } from '../raster/pixels.ts';
import type { BrowserFonts } from './fonts.ts';
import type { PageRunner } from './render-in-browser.ts';
import { renderComposePage } from './render-in-browser.ts';
import { buildSceneHtml } from './scene-html.ts';

/**
 * One text layer drawn by Chromium on a transparent page of the layer's box plus `margin` on
 * every side: straight RGBA whose top-left corner belongs at (round(box.x) - margin,
 * round(box.y) - margin) on the canvas, where the raster renderer puts satori's layer.
 */
export type BrowserTextDrawer = (t: SceneText, margin: number) => Promise<RawImage>;

const EMPTY = { x: 0, y: 0, width: 0, height: 0 };

/**
 * The raster renderer's way to draw text satori cannot: scripts that need shaping (Arabic
 * joining, Indic conjuncts, Thai) or right-to-left order. The layer is the browser renderer's
 * own HTML for it (text.ts, the same fonts and script faces), so both compose modes draw such
 * text alike; the page is kept in the compose cache by its document, as titles repeat.
 */
export function createBrowserTextDrawer(deps: {
  withPage: PageRunner;
  fonts: () => Promise<BrowserFonts>;
  cache?: ComposeCache;
}): BrowserTextDrawer {
  return async (t, margin) => {
    const width = Math.ceil(t.box.width + 2 * margin);
    const height = Math.ceil(t.box.height + 2 * margin);
    const box = {
      x: margin + (t.box.x - Math.round(t.box.x)),
      y: margin + (t.box.y - Math.round(t.box.y)),
      width: t.box.width,
      height: t.box.height,
    };
    const scene: Scene = {
      canvas: { width, height, dpr: 1, scale: 1 },
      background: { kind: 'transparent' },
      shadows: [],
      frame: { rect: EMPTY, radius: 0, fill: null, border: null },
      screenshot: { rect: EMPTY, radius: 0, corners: [0, 0, 0, 0], crop: EMPTY },
      scrim: null,
      texts: [{ ...t, box }],
      device: null,
      layer: null,
      unrendered: [],
    };
    const fonts = await deps.fonts();
    const doc = buildSceneHtml(scene, {
      fonts,
      screenshot: { mode: 'inline', url: 'data:,', width: 1, height: 1 },
    });
    const render = async (): Promise<RawImage> => {
      const png = await deps.withPage((page, cdp) => renderComposePage(page, cdp, doc));
      const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height, channels: 4 };
    };
    if (!deps.cache) return render();
    const key = `browser-text:${createHash('sha256').update(doc.html).digest('base64url')}`;
    const cached = deps.cache.get<RawImage>(key);
    if (cached) return cached;
    const rendering = render();
    deps.cache.set(key, rendering);
    return rendering;
  };
}
