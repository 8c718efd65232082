/**
 * The screenshot drawn into the raster canvas: copied row by row where it is opaque, and blended
 * through an anti-aliased rounded mask (corners may differ, as on some device screens) only in
 * the corner zones.
 */

import { isOpaque } from '../../../image/raw-image.ts';
import type { Rect, SceneScreenshot } from '../../scene-types.ts';
import { blendPixel, type RawImage, roundedRectCoverage } from './pixels.ts';

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
 * corner zones are blended through the anti-aliased rounded mask. `opaque`: whether every pixel
 * is, when the caller knows (a video's frames: checked once per clip, not per frame); else the
 * pixels are scanned.
 */
export function drawScreenshot(canvas: RawImage, pixels: Buffer, s: SceneScreenshot, opaque?: boolean): void {
  const { rect } = s;
  const radius = s.corners ? Math.max(...s.corners) : s.radius;
  const corner = Math.min(Math.ceil(radius) + 1, Math.floor(rect.width / 2));
  const fast = opaque ?? isOpaque(pixels);
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
