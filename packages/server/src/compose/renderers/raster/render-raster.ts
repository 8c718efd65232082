/**
 * The raster renderer: draws a Scene with no browser (sharp for resizing and blurs, satori and
 * resvg for text) into raw RGBA for the encode stage. Its pieces live beside it: the frame band
 * and mat, the screenshot mask, shadows, device, frame layer, text, and the compose cache.
 */

import type { RawPixels } from '../../../image/raw-image.ts';
import type { Point } from '../../camera/camera-math.ts';
import { layerScene } from '../../camera/scene-layer.ts';
import type { Scene, SceneBackground } from '../../scene-types.ts';
import type { FontCatalogue } from '../../text/font-catalogue.ts';
import type { BrowserTextDrawer } from '../browser/text-in-browser.ts';
import type { ComposeCache } from '../compose-cache.ts';
import { coverImage } from '../cover-image.ts';
import { fittedScreenshot } from '../screenshot-fit.ts';
import { drawDevice } from './device.ts';
import { drawFrame, shrink } from './frame.ts';
import { drawFrameLayer, drawWarpedShadow, opaqueCore } from './frame-layer.ts';
import {
  blendPixel,
  createRaw,
  fillRoundedRect,
  paintGradient,
  type RawImage,
  roundedRectCoverage,
} from './pixels.ts';
import { drawScreenshot } from './screenshot.ts';
import { drawShadow } from './shadow.ts';
import { drawTexts } from './text.ts';

export { type ComposeCache, createComposeCache } from '../compose-cache.ts';

export interface RasterDeps {
  fonts: FontCatalogue;
  cache: ComposeCache;
  /** The decoded background image when the scene's background is an image (fetched by the caller). */
  backgroundImage?: RawPixels;
  /** Chromium's drawing of a text layer, for scripts satori cannot shape or order (raster/text.ts). */
  browserText?: BrowserTextDrawer;
}

async function backgroundLayer(scene: Scene, deps: RasterDeps): Promise<RawImage> {
  const { width, height } = scene.canvas;
  const bg = scene.background;
  if (bg.kind === 'transparent') return createRaw(width, height);
  if (bg.kind === 'image' && deps.backgroundImage) {
    return coverImage(deps.backgroundImage, width, height);
  }
  const key =
    bg.kind === 'gradient'
      ? `bg:${bg.css}:${width}x${height}`
      : `bg:solid:${JSON.stringify(bg.kind === 'solid' ? bg.color : bg.fallback)}:${width}x${height}`;
  let pending = deps.cache.get<RawImage>(key);
  if (!pending) {
    pending = (async () => {
      if (bg.kind === 'gradient') return paintGradient(bg.gradient, width, height);
      const img = createRaw(width, height);
      const c = bg.kind === 'solid' ? bg.color : bg.fallback;
      for (let i = 0; i < img.data.length; i += 4) {
        img.data[i] = c.r;
        img.data[i + 1] = c.g;
        img.data[i + 2] = c.b;
        img.data[i + 3] = Math.round(c.a * 255);
      }
      return img;
    })();
    deps.cache.set(key, pending);
  }
  const cached = await pending;
  return { ...cached, data: Buffer.from(cached.data) };
}

/**
 * The background with the shadows drawn on it (flat ones cut out under the frame, warped ones
 * skipped where `hidden`, the opaque core of a frame layer, will cover them): none of it depends
 * on the screenshot's pixels, so a look drawn again (the usual case: one look for many pages)
 * copies it from the compose cache instead of blending every shadow pixel again (about 30 ms of
 * a 1.6 MP default look, 45 ms of CPU for a tilted one). Image backgrounds (fetched per request)
 * are drawn each time.
 */
async function shadowedBackground(
  scene: Scene,
  deps: RasterDeps,
  hidden: Point[] | null = null,
): Promise<RawImage> {
  const under = { rect: scene.frame.rect, radius: scene.frame.radius };
  const draw = async () => {
    const canvas = await backgroundLayer(scene, deps);
    for (const shadow of scene.shadows)
      if (shadow.matrix) await drawWarpedShadow(canvas, shadow, deps.cache, hidden);
      else await drawShadow(canvas, shadow, under, deps.cache);
    return canvas;
  };
  if (scene.background.kind === 'image' || scene.shadows.length === 0) return draw();
  const { width, height } = scene.canvas;
  const key = `bg+shadows:${JSON.stringify([scene.background, scene.shadows, under, hidden])}:${width}x${height}`;
  let pending = deps.cache.get<RawImage>(key);
  if (!pending) {
    pending = draw();
    deps.cache.set(key, pending);
  }
  const cached = await pending;
  return { ...cached, data: Buffer.from(cached.data) };
}

function drawScrim(canvas: RawImage, scene: Scene): void {
  const s = scene.scrim;
  if (!s) return;
  const shot = scene.screenshot;
  for (let y = Math.max(0, s.rect.y); y < Math.min(canvas.height, s.rect.y + s.rect.height); y++) {
    const t = (y - s.rect.y + 0.5) / s.rect.height;
    const ease = t * t * (3 - 2 * t);
    for (let x = Math.max(0, s.rect.x); x < Math.min(canvas.width, s.rect.x + s.rect.width); x++) {
      const cov = roundedRectCoverage(x, y, shot.rect, shot.radius);
      blendPixel(
        canvas.data,
        (y * canvas.width + x) * 4,
        s.color.r,
        s.color.g,
        s.color.b,
        s.color.a * ease * cov,
      );
    }
  }
}

/**
 * Whether the background covers the canvas opaquely: everything else is drawn over it
 * source-over, so the canvas then stays opaque and the encoder need not check it (it drops the
 * alpha channel of an opaque canvas). An image background may carry alpha: left to the check.
 */
function opaqueBackground(bg: SceneBackground): boolean {
  if (bg.kind === 'solid') return bg.color.a >= 1;
  if (bg.kind === 'gradient') return bg.gradient.stops.every((stop) => stop.color.a >= 1);
  return false;
}

/** The finished canvas, marked opaque when its background makes it so. */
const finished = (canvas: RawImage, scene: Scene): RawImage =>
  opaqueBackground(scene.background) ? { ...canvas, opaque: true } : canvas;

/**
 * Draws a Scene with no browser: background, shadows (blurred at reduced resolution), frame
 * (border band, glass, inset mat), the screenshot through its rounded mask, the rim, the
 * overlay scrim and the text layers (satori + resvg). Returns raw RGBA for the encode stage.
 */
export async function renderRaster(scene: Scene, screenshot: RawPixels, deps: RasterDeps): Promise<RawImage> {
  if (scene.layer) {
    // Transformed or blurred frame: the frame layer drawn flat on its own, shadows on the
    // background plane (not where the layer will cover them), the layer blurred and warped into
    // place, then the texts that stay on the canvas.
    const flat = await renderRaster(layerScene(scene, scene.layer), screenshot, deps);
    const canvas = await shadowedBackground(scene, deps, opaqueCore(scene, scene.layer, flat));
    await drawFrameLayer(canvas, flat, scene.layer);
    await drawTexts(
      canvas,
      scene.texts.filter((text) => !text.onFrame),
      deps.fonts,
      deps.browserText,
    );
    return finished(canvas, scene);
  }
  if (scene.screenshot.rect.width <= 0 || scene.screenshot.rect.height <= 0) {
    // No screenshot (the backdrop of a scene of several shots): the background and the texts.
    const canvas = await shadowedBackground(scene, deps);
    await drawTexts(canvas, scene.texts, deps.fonts, deps.browserText);
    return finished(canvas, scene);
  }
  // The screenshot is fitted here only: a frame layer's flat scene fits it in its own render.
  const [canvas, shot] = await Promise.all([
    shadowedBackground(scene, deps),
    fittedScreenshot(screenshot, scene.screenshot),
  ]);
  await drawFrame(canvas, scene.frame, scene, shot);
  // Cropping and fitting keep an opaque screenshot opaque: what its producer knows holds.
  const opaque = screenshot.channels === 3 || screenshot.opaque === true ? true : undefined;
  drawScreenshot(canvas, shot, scene.screenshot, opaque);
  const border = scene.frame.border;
  if (border?.kind === 'rim' && border.width > 0) {
    const { rect, radius } = scene.screenshot;
    fillRoundedRect(canvas, rect, radius, border.color, {
      rect: shrink(rect, border.width),
      radius: Math.max(0, radius - border.width),
    });
  }
  drawScrim(canvas, scene);
  if (scene.device) await drawDevice(canvas, scene.device, deps.cache);
  await drawTexts(canvas, scene.texts, deps.fonts, deps.browserText);
  return finished(canvas, scene);
}
