import sharp from 'sharp';
import type { Rgba } from '../css/css-color.ts';
import type { Rect, Scene, SceneFrame, SceneScreenshot } from '../scene-types.ts';
import type { FontCatalogue } from './font-catalogue.ts';
import { drawDevice } from './raster-device.ts';
import { drawFrameLayer, drawWarpedShadow, layerScene, opaqueCore } from './raster-layer.ts';
import {
  blendPixel,
  createRaw,
  fillRoundedRect,
  paintGradient,
  type RawImage,
  roundedRectCoverage,
} from './raster-pixels.ts';
import { drawShadow, type ShadowMask } from './raster-shadow.ts';
import { drawText } from './raster-text.ts';
import { fittedScreenshot } from './screenshot-fit.ts';

/** Pixels as the capture stage hands them over (RGB or RGBA, straight alpha). */
export interface RawInput {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * What does not depend on the screenshot, kept between renders: backgrounds at canvas size and
 * shadow masks, keyed by their parameters; least recently used entries are dropped first.
 * Create one per process (or per worker) and pass it to every render.
 */
export interface ComposeCache {
  get<T extends RawImage | ShadowMask>(key: string): Promise<T> | undefined;
  set<T extends RawImage | ShadowMask>(key: string, value: Promise<T>): void;
  readonly size: number;
}

export function createComposeCache(maxEntries = 48): ComposeCache {
  const entries = new Map<string, Promise<RawImage | ShadowMask>>();
  return {
    get<T>(key: string) {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit as Promise<T> | undefined;
    },
    set(key, value) {
      entries.set(key, value);
      value.catch(() => entries.delete(key));
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
    },
    get size() {
      return entries.size;
    },
  };
}

export interface RasterDeps {
  fonts: FontCatalogue;
  cache: ComposeCache;
  /** The decoded background image when the scene's background is an image (fetched by the caller). */
  backgroundImage?: RawInput;
}

async function backgroundLayer(scene: Scene, deps: RasterDeps): Promise<RawImage> {
  const { width, height } = scene.canvas;
  const bg = scene.background;
  if (bg.kind === 'transparent') return createRaw(width, height);
  if (bg.kind === 'image' && deps.backgroundImage) {
    const src = deps.backgroundImage;
    const data = await sharp(src.data, {
      raw: { width: src.width, height: src.height, channels: src.channels },
    })
      .resize(width, height, { fit: 'cover', kernel: 'lanczos3' })
      .ensureAlpha()
      .raw()
      .toBuffer();
    return { data, width, height, channels: 4 };
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

function isOpaque(pixels: Buffer): boolean {
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 255) return false;
  return true;
}

/** Coverage by a rounded rect whose corners may differ: the radius of the pixel's quadrant. */
function cornerCoverage(px: number, py: number, r: Rect, s: SceneScreenshot): number {
  if (!s.corners) return roundedRectCoverage(px, py, r, s.radius);
  const right = px + 0.5 > r.x + r.width / 2;
  const bottom = py + 0.5 > r.y + r.height / 2;
  const radius = s.corners[bottom ? (right ? 2 : 3) : right ? 1 : 0];
  return roundedRectCoverage(px, py, r, radius);
}

/**
 * Copies the screenshot in row by row (memcpy for opaque runs, clipped to the canvas); only the
 * corner zones are blended through the anti-aliased rounded mask.
 */
function drawScreenshot(canvas: RawImage, pixels: Buffer, s: SceneScreenshot): void {
  const { rect } = s;
  const radius = s.corners ? Math.max(...s.corners) : s.radius;
  const corner = Math.min(Math.ceil(radius) + 1, Math.floor(rect.width / 2));
  const fast = isOpaque(pixels);
  const left = Math.max(0, -rect.x);
  const right = Math.min(rect.width, canvas.width - rect.x);
  const blend = (x: number, y: number, mask: boolean) => {
    const cx = rect.x + x;
    const cy = rect.y + y;
    if (cx < 0 || cy < 0 || cx >= canvas.width || cy >= canvas.height) return;
    const src = (y * rect.width + x) * 4;
    const cov = mask ? cornerCoverage(cx, cy, rect, s) : 1;
    blendPixel(
      canvas.data,
      (cy * canvas.width + cx) * 4,
      pixels[src] as number,
      pixels[src + 1] as number,
      pixels[src + 2] as number,
      ((pixels[src + 3] as number) / 255) * cov,
    );
  };
  for (let y = Math.max(0, -rect.y); y < Math.min(rect.height, canvas.height - rect.y); y++) {
    const inCorner = y < corner || y >= rect.height - corner;
    const from = Math.max(left, inCorner ? corner : 0);
    const to = Math.min(right, inCorner ? rect.width - corner : rect.width);
    if (to > from && fast) {
      const row = y * rect.width * 4;
      pixels.copy(
        canvas.data,
        ((rect.y + y) * canvas.width + rect.x + from) * 4,
        row + from * 4,
        row + to * 4,
      );
    } else for (let x = from; x < to; x++) blend(x, y, false);
    if (inCorner) {
      for (let x = 0; x < corner; x++) blend(x, y, true);
      for (let x = rect.width - corner; x < rect.width; x++) blend(x, y, true);
    }
  }
}

const shrink = (r: Rect, d: number): Rect => ({
  x: r.x + d,
  y: r.y + d,
  width: r.width - 2 * d,
  height: r.height - 2 * d,
});

function edgeColor(pixels: Buffer, w: number, h: number): Rgba {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  const add = (x: number, y: number) => {
    const i = (y * w + x) * 4;
    r += pixels[i] as number;
    g += pixels[i + 1] as number;
    b += pixels[i + 2] as number;
    n++;
  };
  for (let x = 0; x < w; x += 4) {
    add(x, 0);
    add(x, h - 1);
  }
  for (let y = 0; y < h; y += 4) {
    add(0, y);
    add(w - 1, y);
  }
  return { r: Math.round(r / n), g: Math.round(g / n), b: Math.round(b / n), a: 1 };
}

/** Border band and inset mat, under the screenshot. Glass frosts the pixels already drawn there. */
async function drawFrame(canvas: RawImage, frame: SceneFrame, scene: Scene, shot: Buffer): Promise<void> {
  const { rect, radius, border } = frame;
  const band = border && border.kind !== 'rim' ? border.width : 0;
  const inner = { rect: shrink(rect, band), radius: Math.max(0, radius - band) };
  if (border?.kind === 'solid' && band > 0) fillRoundedRect(canvas, rect, radius, border.color, inner);
  if (border?.kind === 'glass' && band > 0) {
    if (scene.background.kind === 'transparent') fillRoundedRect(canvas, rect, radius, border.color, inner);
    else {
      const r = { left: Math.max(0, rect.x), top: Math.max(0, rect.y) };
      const w = Math.min(canvas.width - r.left, rect.width);
      const h = Math.min(canvas.height - r.top, rect.height);
      const f = 4;
      // Three pipelines: sharp applies one resize per pipeline, and always before the blur.
      const sw = Math.max(1, Math.round(w / f));
      const sh = Math.max(1, Math.round(h / f));
      const small = await sharp(canvas.data, {
        raw: { width: canvas.width, height: canvas.height, channels: 4 },
      })
        .extract({ ...r, width: w, height: h })
        .resize(sw, sh)
        .raw()
        .toBuffer();
      const frosted = await sharp(small, { raw: { width: sw, height: sh, channels: 4 } })
        .blur(Math.max(0.3, (band * 0.9) / f))
        .raw()
        .toBuffer();
      const blurred = await sharp(frosted, { raw: { width: sw, height: sh, channels: 4 } })
        .resize(w, h, { fit: 'fill', kernel: 'cubic' })
        .raw()
        .toBuffer();
      const t = border.color;
      fillRoundedRect(canvas, rect, radius, { ...t, a: 1 }, inner, (i) => {
        const p = i / 4;
        const x = (p % canvas.width) - r.left;
        const y = Math.floor(p / canvas.width) - r.top;
        const j = (y * w + x) * 4;
        return [
          (blurred[j] as number) * (1 - t.a) + t.r * t.a,
          (blurred[j + 1] as number) * (1 - t.a) + t.g * t.a,
          (blurred[j + 2] as number) * (1 - t.a) + t.b * t.a,
        ];
      });
    }
    const hair = Math.max(1, Math.round(scene.canvas.scale));
    fillRoundedRect(
      canvas,
      rect,
      radius,
      { r: 255, g: 255, b: 255, a: 0.55 },
      { rect: shrink(rect, hair), radius: Math.max(0, radius - hair) },
    );
    fillRoundedRect(
      canvas,
      inner.rect,
      inner.radius,
      { r: 255, g: 255, b: 255, a: 0.3 },
      { rect: shrink(inner.rect, hair), radius: Math.max(0, inner.radius - hair) },
    );
  }
  if (frame.fill) {
    const fill =
      frame.fill === 'auto'
        ? edgeColor(shot, scene.screenshot.rect.width, scene.screenshot.rect.height)
        : frame.fill;
    fillRoundedRect(canvas, inner.rect, inner.radius, fill);
  }
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
 * Draws a Scene with no browser: background, shadows (blurred at reduced resolution), frame
 * (border band, glass, inset mat), the screenshot through its rounded mask, the rim, the
 * overlay scrim and the text layers (satori + resvg). Returns raw RGBA for the encode stage.
 */
export async function renderRaster(scene: Scene, screenshot: RawInput, deps: RasterDeps): Promise<RawImage> {
  if (scene.layer) {
    // Transformed or blurred frame: the frame layer drawn flat on its own, shadows on the
    // background plane (not where the layer will cover them), the layer blurred and warped into
    // place, then the texts that stay on the canvas.
    const [canvas, flat] = await Promise.all([
      backgroundLayer(scene, deps),
      renderRaster(layerScene(scene, scene.layer), screenshot, deps),
    ]);
    const hidden = opaqueCore(scene, scene.layer, flat);
    for (const shadow of scene.shadows)
      if (shadow.matrix) await drawWarpedShadow(canvas, shadow, deps.cache, hidden);
      else
        await drawShadow(canvas, shadow, { rect: scene.frame.rect, radius: scene.frame.radius }, deps.cache);
    await drawFrameLayer(canvas, flat, scene.layer);
    for (const text of scene.texts) if (!text.onFrame) await drawText(canvas, text, deps.fonts);
    return canvas;
  }
  // The screenshot is fitted here only: a frame layer's flat scene fits it in its own render.
  const [canvas, shot] = await Promise.all([
    backgroundLayer(scene, deps),
    fittedScreenshot(screenshot, scene.screenshot),
  ]);
  const under = { rect: scene.frame.rect, radius: scene.frame.radius };
  for (const shadow of scene.shadows) await drawShadow(canvas, shadow, under, deps.cache);
  await drawFrame(canvas, scene.frame, scene, shot);
  drawScreenshot(canvas, shot, scene.screenshot);
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
  for (const text of scene.texts) await drawText(canvas, text, deps.fonts);
  return canvas;
}
