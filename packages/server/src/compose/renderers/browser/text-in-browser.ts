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
 * Text layers drawn by Chromium in one page, on a transparent background: each layer's box
 * plus its `margin` on every side (where the raster renderer would put satori's drawing), and
 * the page covering all of them. `image` belongs at (`x`, `y`) on the canvas.
 */
export type BrowserTextDrawer = (
  layers: readonly { text: SceneText; margin: number }[],
) => Promise<{ image: RawImage; x: number; y: number }>;

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
  return async (layers) => {
    // The union of the layers' rects, in whole canvas pixels.
    const rects = layers.map(({ text: t, margin }) => ({
      x: Math.round(t.box.x) - margin,
      y: Math.round(t.box.y) - margin,
      right: Math.round(t.box.x) - margin + Math.ceil(t.box.width + 2 * margin),
      bottom: Math.round(t.box.y) - margin + Math.ceil(t.box.height + 2 * margin),
    }));
    const x = Math.min(...rects.map((r) => r.x));
    const y = Math.min(...rects.map((r) => r.y));
    const width = Math.max(...rects.map((r) => r.right)) - x;
    const height = Math.max(...rects.map((r) => r.bottom)) - y;
    const scene: Scene = {
      canvas: { width, height, dpr: 1, scale: 1 },
      background: { kind: 'transparent' },
      shadows: [],
      frame: { rect: EMPTY, radius: 0, fill: null, border: null },
      screenshot: { rect: EMPTY, radius: 0, corners: [0, 0, 0, 0], crop: EMPTY },
      scrim: null,
      // Moved by whole pixels: each box keeps its fractional position, so it rounds as on the canvas.
      texts: layers.map(({ text: t }) => ({ ...t, box: { ...t.box, x: t.box.x - x, y: t.box.y - y } })),
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
    if (!deps.cache) return { image: await render(), x, y };
    const key = `browser-text:${createHash('sha256').update(doc.html).digest('base64url')}`;
    let rendering = deps.cache.get<RawImage>(key);
    if (!rendering) {
      rendering = render();
      deps.cache.set(key, rendering);
    }
    return { image: await rendering, x, y };
  };
}
