import { isOpaque } from '../../../image/raw-image.ts';
import type { CornerRadii, Rect, SceneScreenshot } from '../../scene-types.ts';
import { blendPixel, type RawImage, roundedRectCoverage } from '../raster/pixels.ts';

/**
 * Pixel work of the browser renderer that stays in Node: the screenshot is pasted between the
 * page's layers instead of crossing the DevTools pipe (about 45 ms per MB there).
 */

/** A rounded rect whose corners may differ ([top-left, top-right, bottom-right, bottom-left]). */
export interface RoundedMask {
  rect: Rect;
  radius: number;
  corners?: CornerRadii;
}

/** Coverage of a pixel by the mask: the radius of the pixel's quadrant (as the raster renderer). */
function maskCoverage(px: number, py: number, m: RoundedMask): number {
  if (!m.corners) return roundedRectCoverage(px, py, m.rect, m.radius);
  const right = px + 0.5 > m.rect.x + m.rect.width / 2;
  const bottom = py + 0.5 > m.rect.y + m.rect.height / 2;
  return roundedRectCoverage(px, py, m.rect, m.corners[bottom ? (right ? 2 : 3) : right ? 1 : 0]);
}

const largestRadius = (m: RoundedMask) => (m.corners ? Math.max(...m.corners) : m.radius);

/**
 * Source-over of `layer` (straight alpha, `layer.width` x `layer.height` from `src` rows of a
 * bigger image) onto `canvas` at (x, y); `mask` optionally limits it to a rounded rect.
 */
export function compositeOver(
  canvas: RawImage,
  layer: { data: Buffer; width: number; stride: number; height: number },
  at: { x: number; y: number },
  mask?: RoundedMask,
): void {
  const corner = mask ? Math.ceil(largestRadius(mask)) + 1 : 0;
  for (let y = 0; y < layer.height; y++) {
    const cy = at.y + y;
    if (cy < 0 || cy >= canvas.height) continue;
    const nearY = mask && (cy < mask.rect.y + corner || cy >= mask.rect.y + mask.rect.height - corner);
    for (let x = 0; x < layer.width; x++) {
      const cx = at.x + x;
      if (cx < 0 || cx >= canvas.width) continue;
      const s = (y * layer.stride + x) * 4;
      let a = (layer.data[s + 3] as number) / 255;
      if (a === 0) continue;
      const d = (cy * canvas.width + cx) * 4;
      if (mask && (nearY || cx < mask.rect.x + corner || cx >= mask.rect.x + mask.rect.width - corner))
        a *= maskCoverage(cx, cy, mask);
      if (a >= 1) {
        layer.data.copy(canvas.data, d, s, s + 4);
        continue;
      }
      blendPixel(
        canvas.data,
        d,
        layer.data[s] as number,
        layer.data[s + 1] as number,
        layer.data[s + 2] as number,
        a,
      );
    }
  }
}

/**
 * Pastes the fitted screenshot into its rounded rect: opaque rows are copied whole (memcpy),
 * only the corner zones go through the anti-aliased mask.
 */
export function pasteScreenshot(canvas: RawImage, pixels: Buffer, s: SceneScreenshot): void {
  const { rect } = s;
  const mask: RoundedMask = { rect, radius: s.radius, ...(s.corners ? { corners: s.corners } : {}) };
  const inside =
    rect.x >= 0 &&
    rect.y >= 0 &&
    rect.x + rect.width <= canvas.width &&
    rect.y + rect.height <= canvas.height;
  const layer = { data: pixels, width: rect.width, stride: rect.width, height: rect.height };
  if (!inside || !isOpaque(pixels)) {
    compositeOver(canvas, layer, rect, mask);
    return;
  }
  const corner = Math.min(Math.ceil(largestRadius(mask)) + 1, Math.floor(rect.height / 2));
  for (let y = corner; y < rect.height - corner; y++)
    pixels.copy(
      canvas.data,
      ((rect.y + y) * canvas.width + rect.x) * 4,
      y * rect.width * 4,
      (y + 1) * rect.width * 4,
    );
  const band = (y0: number) => ({
    data: pixels.subarray(y0 * rect.width * 4),
    width: rect.width,
    stride: rect.width,
    height: corner,
  });
  compositeOver(canvas, band(0), rect, mask);
  compositeOver(canvas, band(rect.height - corner), { x: rect.x, y: rect.y + rect.height - corner }, mask);
}
