import { invert, type Mat3, type Point } from '../camera/camera-math.ts';
import { columnExtent, innerSpan, insideRange, quadRows } from './quad-rows.ts';
import { clamped, type RgbaTarget } from './straight-layer.ts';

/** A one-channel mask (0..255) placed at (`x`, `y`) in layer space. */
export interface PlacedMask {
  data: Buffer;
  width: number;
  height: number;
  x: number;
  y: number;
}

/** Bilinear sample of `mask` at index-space (fx, fy); outside the mask is 0. */
function sampleMask(mask: PlacedMask, fx: number, fy: number): number {
  const W = mask.width;
  const H = mask.height;
  const ix = Math.floor(fx);
  const iy = Math.floor(fy);
  if (ix < -1 || iy < -1 || ix >= W || iy >= H) return 0;
  const ax = fx - ix;
  const ay = fy - iy;
  const m = mask.data;
  if (ix >= 0 && iy >= 0 && ix < W - 1 && iy < H - 1) {
    const k = iy * W + ix;
    const top = (m[k] as number) * (1 - ax) + (m[k + 1] as number) * ax;
    const bottom = (m[k + W] as number) * (1 - ax) + (m[k + W + 1] as number) * ax;
    return top * (1 - ay) + bottom * ay;
  }
  return (
    (maskAt(mask, ix, iy) * (1 - ax) + maskAt(mask, ix + 1, iy) * ax) * (1 - ay) +
    (maskAt(mask, ix, iy + 1) * (1 - ax) + maskAt(mask, ix + 1, iy + 1) * ax) * ay
  );
}

const maskAt = (mask: PlacedMask, x: number, y: number): number =>
  x < 0 || y < 0 || x >= mask.width || y >= mask.height ? 0 : (mask.data[y * mask.width + x] as number);

/**
 * Blends colour `color` (straight, alpha 0..1) through `mask` mapped to the target by the
 * homography `h`. The warped mask is evaluated on a grid `step` target px apart (one sample
 * per step x step block, at its centre) and interpolated bilinearly back to every pixel: a
 * blurred shadow has no detail finer than its blur, so with `step` well under the projected
 * blur radius the result is the same as warping every pixel, at 1 / step^2 of the cost.
 * Pixels inside `hidden` (a convex quad that something opaque will be drawn over) are skipped.
 */
export function warpMaskOnto(
  target: RgbaTarget,
  mask: PlacedMask,
  h: Mat3,
  color: { r: number; g: number; b: number; a: number },
  step = 1,
  hidden: Point[] | null = null,
): void {
  const rows = quadRows(h, mask, target, 1);
  if (!rows) return;
  const extent = columnExtent(rows);
  if (!extent) return;
  const { x0, x1 } = extent;
  // The grid starts one step before (x0, y0) so every pixel centre has samples on both sides.
  const gx = x0 - step;
  const gy = rows.y0 - step;
  const gw = Math.ceil((x1 - x0) / step) + 3;
  const gh = Math.ceil((rows.y1 - rows.y0) / step) + 3;
  const grid = new Float32Array(gw * gh);
  const inv = invert(h);
  // One call per row: V8 optimises a small function called often far better than one long loop.
  for (let j = 0; j < gh; j++) {
    const py = gy + (j + 0.5) * step;
    // Samples whose every use (pixels within a step, 2 px spare) is hidden are left at 0.
    const skip = hidden ? insideRange(hidden, py - step - 2, py + step + 2) : null;
    sampleRow(
      grid,
      gw,
      j,
      gx,
      py,
      step,
      inv,
      mask,
      skip ? skip[0] + step + 2 : 0,
      skip ? skip[1] - step - 2 : 0,
    );
  }
  const dst = clamped(target.data);
  const row = new Float32Array(gw);
  for (let y = rows.y0; y < rows.y1; y++) {
    const from = rows.from[y - rows.y0] as number;
    const to = rows.to[y - rows.y0] as number;
    if (to <= from) continue;
    lerpRows(grid, gw, (y + 0.5 - gy) / step - 0.5, row);
    const [h0, h1] = hidden ? innerSpan(hidden, y) : [0, 0];
    const runs = h1 > h0 ? [from, Math.min(to, h0), Math.max(from, h1), to] : [from, to];
    for (let r = 0; r < runs.length; r += 2) {
      const start = runs[r] as number;
      const end = runs[r + 1] as number;
      if (end <= start) continue;
      blendRow(
        dst,
        (y * target.width + start) * 4,
        row,
        (start + 0.5 - gx) / step - 0.5,
        1 / step,
        end - start,
        color,
      );
    }
  }
}

/** The grid interpolated at fractional row `v` into `row`. */
function lerpRows(grid: Float32Array, gw: number, v: number, row: Float32Array): void {
  const j = Math.floor(v);
  const ay = v - j;
  for (let i = 0, k = j * gw; i < gw; i++, k++)
    row[i] = (grid[k] as number) * (1 - ay) + (grid[k + gw] as number) * ay;
}

/** Grid row `j` (target y `py`): the mask through the inverse homography at each sample outside [skipFrom, skipTo]. */
function sampleRow(
  grid: Float32Array,
  gw: number,
  j: number,
  gx: number,
  py: number,
  step: number,
  inv: Mat3,
  mask: PlacedMask,
  skipFrom: number,
  skipTo: number,
): void {
  const [a, b, c, d, e, f, g, hh, ii] = inv;
  for (let i = 0; i < gw; i++) {
    const px = gx + (i + 0.5) * step;
    if (px >= skipFrom && px <= skipTo) continue;
    const w = g * px + hh * py + ii;
    if (w <= 0) continue;
    const fx = (a * px + b * py + c) / w - mask.x - 0.5;
    const fy = (d * px + e * py + f) / w - mask.y - 0.5;
    grid[j * gw + i] = sampleMask(mask, fx, fy);
  }
}

/** `n` pixels from byte `i`: the colour at the mask interpolated along `row` from `u` by `du`. */
function blendRow(
  dst: Uint8ClampedArray,
  i: number,
  row: Float32Array,
  u: number,
  du: number,
  n: number,
  color: { r: number; g: number; b: number; a: number },
): void {
  const { r, g, b } = color;
  for (let x = 0; x < n; x++, u += du, i += 4) {
    const iu = Math.floor(u);
    const ax = u - iu;
    const alpha = ((row[iu] as number) * (1 - ax) + (row[iu + 1] as number) * ax) * color.a;
    if (alpha < 0.25) continue;
    const t = alpha / 255;
    const rest = 1 - t;
    const da = dst[i + 3] as number;
    if (da === 255) {
      dst[i] = r * t + (dst[i] as number) * rest;
      dst[i + 1] = g * t + (dst[i + 1] as number) * rest;
      dst[i + 2] = b * t + (dst[i + 2] as number) * rest;
      continue;
    }
    const oa = alpha + da * rest;
    const s = (da * rest) / oa;
    const q = alpha / oa;
    dst[i] = r * q + (dst[i] as number) * s;
    dst[i + 1] = g * q + (dst[i + 1] as number) * s;
    dst[i + 2] = b * q + (dst[i + 2] as number) * s;
    dst[i + 3] = oa;
  }
}
