import sharp from 'sharp';
import type { Rect, SceneShadow } from '../../scene-types.ts';
import { blendPixel, clip, type RawImage, roundedRectCoverage } from './pixels.ts';

/** A shadow's alpha mask (1 channel, full resolution) and where its top-left sits relative to the shadow rect. */
export interface ShadowMask {
  data: Buffer;
  width: number;
  height: number;
  margin: number;
}

/**
 * Renders the blurred rounded-rect mask of a shadow. The blur runs at 1/4 or 1/8 resolution
 * (a blurred edge has no high frequencies to lose) and is scaled back up: this is what makes a
 * 64 px shadow cost milliseconds instead of seconds.
 */
export async function renderShadowMask(
  width: number,
  height: number,
  radius: number,
  sigma: number,
): Promise<ShadowMask> {
  const margin = Math.ceil(sigma * 3) + 1;
  const fullW = Math.round(width) + 2 * margin;
  const fullH = Math.round(height) + 2 * margin;
  const f = sigma >= 24 ? 8 : sigma >= 6 ? 4 : sigma >= 2 ? 2 : 1;
  const w = Math.max(1, Math.ceil(fullW / f));
  const h = Math.max(1, Math.ceil(fullH / f));
  const small = Buffer.alloc(w * h);
  const rect: Rect = { x: margin / f, y: margin / f, width: width / f, height: height / f };
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++)
      small[y * w + x] = Math.round(roundedRectCoverage(x, y, rect, radius / f) * 255);
  }
  // Blur and upscale are two pipelines: within one, sharp resizes before it blurs, which would
  // blur at full size with the reduced sigma (a shadow f times too narrow).
  const blurred =
    sigma / f >= 0.3
      ? await sharp(small, { raw: { width: w, height: h, channels: 1 } })
          .blur(Math.max(0.3, sigma / f))
          .extractChannel(0)
          .raw()
          .toBuffer()
      : small;
  if (f === 1) return { data: blurred, width: fullW, height: fullH, margin };
  const data = await sharp(blurred, { raw: { width: w, height: h, channels: 1 } })
    .resize(w * f, h * f, { kernel: 'cubic' })
    .extract({ left: 0, top: 0, width: fullW, height: fullH })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { data, width: fullW, height: fullH, margin };
}

/** Anything that can hold computed masks between renders (see createComposeCache). */
export interface MaskCache {
  get(key: string): Promise<ShadowMask> | undefined;
  set(key: string, value: Promise<ShadowMask>): void;
}

/**
 * Draws a shadow onto the canvas, skipping the area the frame covers (CSS box-shadow is never
 * painted under its box, and an opaque screenshot hides it anyway).
 */
export async function drawShadow(
  canvas: RawImage,
  s: SceneShadow,
  under: { rect: Rect; radius: number },
  cache: MaskCache,
): Promise<void> {
  const key = `shadow:${Math.round(s.rect.width)}x${Math.round(s.rect.height)}:${s.radius.toFixed(1)}:${s.sigma.toFixed(2)}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = renderShadowMask(s.rect.width, s.rect.height, s.radius, s.sigma);
    cache.set(key, pending);
  }
  const mask = await pending;
  const ox = Math.round(s.rect.x) - mask.margin;
  const oy = Math.round(s.rect.y) - mask.margin;
  const { x0, y0, x1, y1 } = clip(canvas, { x: ox, y: oy, width: mask.width, height: mask.height });
  const hole = under.rect;
  const inset = under.radius + 1;
  const { r, g, b, a } = s.color;
  const pixel = (x: number, y: number, cut: boolean) => {
    const m = mask.data[(y - oy) * mask.width + (x - ox)] as number;
    if (m === 0) return;
    const alpha = (m / 255) * a * (cut ? 1 - roundedRectCoverage(x, y, hole, under.radius) : 1);
    blendPixel(canvas.data, (y * canvas.width + x) * 4, r, g, b, alpha);
  };
  for (let y = y0; y < y1; y++) {
    const rowY = y >= hole.y && y < hole.y + hole.height;
    if (rowY && y >= hole.y + inset && y < hole.y + hole.height - inset) {
      for (let x = x0; x < Math.min(x1, hole.x); x++) pixel(x, y, false);
      for (let x = Math.max(x0, hole.x + hole.width); x < x1; x++) pixel(x, y, false);
    } else for (let x = x0; x < x1; x++) pixel(x, y, rowY);
  }
}
