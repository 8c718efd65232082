import { apply, invert, type Mat3 } from '../camera/camera-math.ts';
import type { Rect } from '../scene-types.ts';

/** An RGBA image with premultiplied alpha as floats (0..255), positioned at `x`, `y` in its own space. */
export interface PremulLayer {
  data: Float32Array;
  width: number;
  height: number;
  x: number;
  y: number;
}

/** A straight-alpha RGBA image (the renderers' canvas). */
export interface RgbaTarget {
  data: Buffer;
  width: number;
  height: number;
}

/** Straight-alpha RGBA bytes -> premultiplied floats. */
export function premultiply(src: Buffer, width: number, height: number, x = 0, y = 0): PremulLayer {
  const data = new Float32Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    const a = (src[i + 3] as number) / 255;
    if (a === 0) continue;
    data[i] = (src[i] as number) * a;
    data[i + 1] = (src[i + 1] as number) * a;
    data[i + 2] = (src[i + 2] as number) * a;
    data[i + 3] = a * 255;
  }
  return { data, width, height, x, y };
}

/** Canvas pixels the layer can reach through `h`, clipped to the target. */
export function reach(h: Mat3, r: Rect, target: { width: number; height: number }) {
  const pts = [
    apply(h, r.x, r.y),
    apply(h, r.x + r.width, r.y),
    apply(h, r.x + r.width, r.y + r.height),
    apply(h, r.x, r.y + r.height),
  ];
  return {
    x0: Math.max(0, Math.floor(Math.min(...pts.map((p) => p.x)))),
    y0: Math.max(0, Math.floor(Math.min(...pts.map((p) => p.y)))),
    x1: Math.min(target.width, Math.ceil(Math.max(...pts.map((p) => p.x)))),
    y1: Math.min(target.height, Math.ceil(Math.max(...pts.map((p) => p.y)))),
  };
}

/** Source-over of one premultiplied colour onto straight-alpha pixel `i`. */
function over(dst: Buffer, i: number, r: number, g: number, b: number, a: number): void {
  if (a < 0.25) return;
  const k = 1 - a / 255;
  const da = (dst[i + 3] as number) * k;
  const oa = a + da;
  const s = da / 255;
  dst[i] = Math.min(255, (r + (dst[i] as number) * s) * (255 / oa) + 0.5);
  dst[i + 1] = Math.min(255, (g + (dst[i + 1] as number) * s) * (255 / oa) + 0.5);
  dst[i + 2] = Math.min(255, (b + (dst[i + 2] as number) * s) * (255 / oa) + 0.5);
  dst[i + 3] = Math.min(255, oa + 0.5);
}

/**
 * Draws `layer` onto `target` through the homography `h` (layer space -> target pixels),
 * source-over. Each target pixel maps back into the layer; where the mapping shrinks the layer
 * (foreshortened sides), it takes n x n bilinear samples spread over the pixel's footprint
 * (n from the local scale, up to 4), so fine text and 1 px lines minify without aliasing.
 * Bilinear on premultiplied alpha: edges fade into the layer's transparent margin without
 * dark fringes, anti-aliased over about one pixel.
 */
export function warpOnto(target: RgbaTarget, layer: PremulLayer, h: Mat3): void {
  const inv = invert(h);
  const { x0, y0, x1, y1 } = reach(
    h,
    { x: layer.x, y: layer.y, width: layer.width, height: layer.height },
    target,
  );
  const src = layer.data;
  const W = layer.width;
  const H = layer.height;
  const acc = new Float64Array(4);
  const tap = (sx: number, sy: number, w: number) => {
    // Pixel centres at +0.5: sample position in index space.
    const fx = sx - layer.x - 0.5;
    const fy = sy - layer.y - 0.5;
    const ix = Math.floor(fx);
    const iy = Math.floor(fy);
    const ax = fx - ix;
    const ay = fy - iy;
    for (let j = 0; j < 2; j++) {
      const yy = iy + j;
      if (yy < 0 || yy >= H) continue;
      const wy = (j ? ay : 1 - ay) * w;
      for (let i = 0; i < 2; i++) {
        const xx = ix + i;
        if (xx < 0 || xx >= W) continue;
        const wgt = (i ? ax : 1 - ax) * wy;
        const k = (yy * W + xx) * 4;
        acc[0] = (acc[0] as number) + (src[k] as number) * wgt;
        acc[1] = (acc[1] as number) + (src[k + 1] as number) * wgt;
        acc[2] = (acc[2] as number) + (src[k + 2] as number) * wgt;
        acc[3] = (acc[3] as number) + (src[k + 3] as number) * wgt;
      }
    }
  };
  const [a, b, c, d, e, f, g, hh, ii] = inv;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const w = g * px + hh * py + ii;
      if (w <= 0) continue;
      const sx = (a * px + b * py + c) / w;
      const sy = (d * px + e * py + f) / w;
      if (sx < layer.x - 1 || sy < layer.y - 1 || sx > layer.x + W + 1 || sy > layer.y + H + 1) continue;
      // Footprint: the Jacobian of the inverse map at this pixel.
      const jxx = (a - g * sx) / w;
      const jyx = (d - g * sy) / w;
      const jxy = (b - hh * sx) / w;
      const jyy = (e - hh * sy) / w;
      const n = Math.min(
        4,
        Math.max(1, Math.ceil(Math.max(Math.hypot(jxx, jyx), Math.hypot(jxy, jyy)) - 0.2)),
      );
      acc.fill(0);
      if (n === 1) tap(sx, sy, 1);
      else {
        const wt = 1 / (n * n);
        for (let q = 0; q < n; q++) {
          const oy = (q + 0.5) / n - 0.5;
          for (let p = 0; p < n; p++) {
            const ox = (p + 0.5) / n - 0.5;
            tap(sx + jxx * ox + jxy * oy, sy + jyx * ox + jyy * oy, wt);
          }
        }
      }
      over(
        target.data,
        (y * target.width + x) * 4,
        acc[0] as number,
        acc[1] as number,
        acc[2] as number,
        acc[3] as number,
      );
    }
  }
}

/**
 * Blends colour `color` (straight, alpha 0..1) through a one-channel `mask` placed at
 * (`mask.x`, `mask.y`) in layer space and mapped to the target by `h` (bilinear: a shadow mask
 * has no detail to alias).
 */
export function warpMaskOnto(
  target: RgbaTarget,
  mask: { data: Buffer; width: number; height: number; x: number; y: number },
  h: Mat3,
  color: { r: number; g: number; b: number; a: number },
): void {
  const inv = invert(h);
  const { x0, y0, x1, y1 } = reach(h, mask, target);
  const [a, b, c, d, e, f, g, hh, ii] = inv;
  const W = mask.width;
  const at = (xx: number, yy: number) =>
    xx < 0 || yy < 0 || xx >= W || yy >= mask.height ? 0 : (mask.data[yy * W + xx] as number);
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const px = x + 0.5;
      const py = y + 0.5;
      const w = g * px + hh * py + ii;
      if (w <= 0) continue;
      const fx = (a * px + b * py + c) / w - mask.x - 0.5;
      const fy = (d * px + e * py + f) / w - mask.y - 0.5;
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      if (ix < -1 || iy < -1 || ix >= W || iy >= mask.height) continue;
      const ax = fx - ix;
      const ay = fy - iy;
      const m =
        (at(ix, iy) * (1 - ax) + at(ix + 1, iy) * ax) * (1 - ay) +
        (at(ix, iy + 1) * (1 - ax) + at(ix + 1, iy + 1) * ax) * ay;
      const alpha = (m / 255) * color.a * 255;
      if (alpha < 0.25) continue;
      const k = alpha / 255;
      over(target.data, (y * target.width + x) * 4, color.r * k, color.g * k, color.b * k, alpha);
    }
  }
}
