import { invert, type Mat3 } from '../camera/camera-math.ts';
import type { BlurredLayer } from './layer-blur.ts';
import { columnExtent, type QuadRows, quadRows } from './quad-rows.ts';
import type { RgbaTarget, StraightLayer } from './straight-layer.ts';
import { type BlurGridPlan, runWarp, type WarpJob } from './warp-module.ts';

/**
 * Draws `layer` onto `target` through the homography `h` (layer space -> target pixels),
 * source-over. Only the target pixels the projected layer covers are visited (row spans of the
 * quad), and the inverse map advances by constant increments along a row. Where the mapping
 * shrinks the layer (foreshortened sides) a pixel takes bilinear samples spread over its
 * footprint, as many along each axis of the footprint as that axis is long (up to 4): text and
 * 1 px lines minify without aliasing, and a side that is only narrowed is not blurred along
 * its height. Bilinear on premultiplied alpha: edges fade into the transparent margin without
 * dark fringes, anti-aliased over about one pixel.
 *
 * With `blur`, each pixel stacks the blur levels over the sharp layer source-over (level i
 * weighted by its profile at the pixel's point of the flat layer), walking the stack from the
 * top level down and stopping once what is above is opaque: a fully blurred pixel reads one
 * reduced level and never the sharp layer. Where a level's blur allows, the levels are evaluated
 * on a coarse grid and interpolated per pixel (blurGridStep).
 *
 * The per-pixel loop is WebAssembly with SIMD (warp-module.ts); this function plans it.
 */
export function warpOnto(
  target: RgbaTarget,
  layer: StraightLayer,
  h: Mat3,
  blur: BlurredLayer | null = null,
): void {
  const job = planWarp(target, layer, h, blur);
  if (job) runWarp(job);
}

/** What warpOnto runs: the rows the quad covers, the inverse map, the blur grid; null if none. */
export function planWarp(
  target: RgbaTarget,
  layer: StraightLayer,
  h: Mat3,
  blur: BlurredLayer | null,
): WarpJob | null {
  const rows = quadRows(h, { x: layer.x, y: layer.y, width: layer.width, height: layer.height }, target);
  if (!rows) return null;
  const inv = invert(h);
  const step = blur ? blurGridStep(blur, inv, rows) : 1;
  return { target, layer, inv, rows, blur, grid: blur && step > 1 ? gridPlan(rows, step) : null };
}

/**
 * The coarse grid of the blur levels: points `step` target px apart (each: the stacked levels'
 * premultiplied colour and what still shows under them), interpolated bilinearly per pixel. A
 * blurred level has no detail finer than its blur, so with `step` at most half the smallest
 * level's blur as projected, a linear interpolation stays within about 2 levels of 8-bit colour
 * of sampling every pixel, at 1 / step^2 of the taps. It starts one step before the rows' first
 * pixel so every pixel centre has points on both sides; per grid row, only the columns some
 * visited pixel reads are evaluated.
 */
function gridPlan(rows: QuadRows, step: number): BlurGridPlan {
  const { x0, x1 } = columnExtent(rows) ?? { x0: 0, x1: 0 };
  const gx = x0 - step;
  const gy = rows.y0 - step;
  const gw = Math.ceil((x1 - x0) / step) + 3;
  const gh = Math.ceil((rows.y1 - rows.y0) / step) + 3;
  const columns = new Int32Array(gh * 2);
  for (let j = 0; j < gh; j++) columns[2 * j] = gw;
  // The warp's interpolation: pixel (x, y) reads grid rows j, j + 1 and columns i, i + 1 with
  // j = floor((y + 0.5 - gy) / step - 0.5) and i likewise.
  const cell = (px: number, origin: number) => Math.floor((px + 0.5 - origin) / step - 0.5);
  for (let y = rows.y0; y < rows.y1; y++) {
    const from = rows.from[y - rows.y0] as number;
    const to = rows.to[y - rows.y0] as number;
    if (to <= from) continue;
    const j = cell(y, gy);
    const first = Math.max(0, cell(from, gx));
    const last = Math.min(gw, cell(to - 1, gx) + 2);
    for (const r of [j, j + 1]) {
      if (r < 0 || r >= gh) continue;
      columns[2 * r] = Math.min(columns[2 * r] as number, first);
      columns[2 * r + 1] = Math.max(columns[2 * r + 1] as number, last);
    }
  }
  return { step, gx, gy, gw, gh, columns };
}

/** Grid step for `blur` under the inverse map: a power of two, at most half the smallest projected sigma and 4. */
function blurGridStep(blur: BlurredLayer, inv: Mat3, rows: QuadRows): number {
  const sigma = Math.min(...blur.levels.map((l) => l.sigma));
  if (!Number.isFinite(sigma)) return 1;
  // Layer px per target px, at most, over the rows' extent (the Jacobian at the quad's corners).
  let most = 0;
  const [a, b, , d, e, , g, hh, ii] = inv;
  const xs = [Math.min(...rows.from), Math.max(...rows.to)];
  for (const y of [rows.y0 + 0.5, rows.y1 - 0.5])
    for (const x of xs) {
      const w = g * x + hh * y + ii;
      if (w <= 0) return 1;
      const sx = (inv[0] * x + inv[1] * y + inv[2]) / w;
      const sy = (inv[3] * x + inv[4] * y + inv[5]) / w;
      const jxx = (a - g * sx) / w;
      const jyx = (d - g * sy) / w;
      const jxy = (b - hh * sx) / w;
      const jyy = (e - hh * sy) / w;
      most = Math.max(most, Math.hypot(jxx, jyx), Math.hypot(jxy, jyy));
    }
  const projected = sigma / Math.max(most, 1e-9);
  let step = 1;
  while (step < 4 && step * 2 <= projected / 2) step *= 2;
  return step;
}
