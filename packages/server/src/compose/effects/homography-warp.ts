import { invert, type Mat3 } from '../camera/camera-math.ts';
import { BLUR_TABLE, type BlurLevel, type BlurredLayer, blurParam } from './layer-blur.ts';
import { columnExtent, type QuadRows, quadRows } from './quad-rows.ts';
import { clamped, overPremul, type RgbaTarget, type StraightLayer } from './straight-layer.ts';

/**
 * The warp's scratch: the premultiplied colour accumulated for a pixel (slots 0-3: r, g, b, a,
 * each x 255), then the floating-point inputs and results of `tap` and `blurTaps`. They travel
 * in this array rather than as arguments and return values because V8 boxes every
 * floating-point argument and result of a call it does not inline in a new heap object: per
 * covered pixel, that was 60 MB of garbage per tilted render at dpr 1, and a full collection
 * every render (docs/decisions.md, "Warp without boxed numbers").
 */
const TAP_X = 4;
const TAP_Y = 5;
const TAP_WEIGHT = 6;
const TAP_ALPHA = 7;
const BLUR_T = 8;
const BLUR_X = 9;
const BLUR_Y = 10;
const BLUR_REST = 11;
const SCRATCH_SIZE = 12;

/** A fresh scratch (see TAP_X): one per warp. */
const newScratch = () => new Float64Array(SCRATCH_SIZE);

/** Clears the accumulated colour (slots 0-3). */
function clearColour(acc: Float64Array): void {
  acc[0] = 0;
  acc[1] = 0;
  acc[2] = 0;
  acc[3] = 0;
}

/**
 * Adds weight `acc[TAP_WEIGHT]` x the bilinear sample of straight-alpha `src` (W x H) at
 * index-space (`acc[TAP_X]`, `acc[TAP_Y]`) into the colour slots as premultiplied colour (each
 * texel weighted by its alpha: the same as interpolating premultiplied texels, so transparent
 * neighbours add no dark fringe); taps outside the image are transparent. Leaves the sample's
 * alpha (0..255), unweighted, in `acc[TAP_ALPHA]`.
 */
function tap(src: Uint8Array, W: number, H: number, acc: Float64Array): void {
  const fx = acc[TAP_X] as number;
  const fy = acc[TAP_Y] as number;
  const w = acc[TAP_WEIGHT] as number;
  const ix = Math.floor(fx);
  const iy = Math.floor(fy);
  const ax = fx - ix;
  const ay = fy - iy;
  if (ix >= 0 && iy >= 0 && ix < W - 1 && iy < H - 1) {
    const k = (iy * W + ix) * 4;
    const k2 = k + W * 4;
    const a00 = (src[k + 3] as number) * (1 - ax) * (1 - ay);
    const a10 = (src[k + 7] as number) * ax * (1 - ay);
    const a01 = (src[k2 + 3] as number) * (1 - ax) * ay;
    const a11 = (src[k2 + 7] as number) * ax * ay;
    const alpha = a00 + a10 + a01 + a11;
    acc[TAP_ALPHA] = alpha;
    if (alpha === 0) return;
    const p = w / 255;
    acc[0] =
      (acc[0] as number) +
      ((src[k] as number) * a00 +
        (src[k + 4] as number) * a10 +
        (src[k2] as number) * a01 +
        (src[k2 + 4] as number) * a11) *
        p;
    acc[1] =
      (acc[1] as number) +
      ((src[k + 1] as number) * a00 +
        (src[k + 5] as number) * a10 +
        (src[k2 + 1] as number) * a01 +
        (src[k2 + 5] as number) * a11) *
        p;
    acc[2] =
      (acc[2] as number) +
      ((src[k + 2] as number) * a00 +
        (src[k + 6] as number) * a10 +
        (src[k2 + 2] as number) * a01 +
        (src[k2 + 6] as number) * a11) *
        p;
    acc[3] = (acc[3] as number) + alpha * w;
    return;
  }
  let alpha = 0;
  for (let j = 0; j < 2; j++) {
    const yy = iy + j;
    if (yy < 0 || yy >= H) continue;
    const wy = j ? ay : 1 - ay;
    for (let i = 0; i < 2; i++) {
      const xx = ix + i;
      if (xx < 0 || xx >= W) continue;
      const k = (yy * W + xx) * 4;
      const a = (src[k + 3] as number) * (i ? ax : 1 - ax) * wy;
      alpha += a;
      const p = (a * w) / 255;
      acc[0] = (acc[0] as number) + (src[k] as number) * p;
      acc[1] = (acc[1] as number) + (src[k + 1] as number) * p;
      acc[2] = (acc[2] as number) + (src[k + 2] as number) * p;
      acc[3] = (acc[3] as number) + a * w;
    }
  }
  acc[TAP_ALPHA] = alpha;
}

/** Samples along one footprint axis of squared length `len2` source px: one per px, 1..4. */
const samples = (len2: number) => (len2 <= 1.44 ? 1 : len2 <= 4.84 ? 2 : len2 <= 10.24 ? 3 : 4);

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
 * reduced level and never the sharp layer.
 */
export function warpOnto(
  target: RgbaTarget,
  layer: StraightLayer,
  h: Mat3,
  blur: BlurredLayer | null = null,
): void {
  const rows = quadRows(h, { x: layer.x, y: layer.y, width: layer.width, height: layer.height }, target);
  if (!rows) return;
  const inv = invert(h);
  const step = blur ? blurGridStep(blur, inv, rows) : 1;
  const grid = blur && step > 1 ? blurGrid(blur, inv, layer, rows, step) : null;
  const ctx: WarpRow = {
    inv,
    layer,
    blur: grid ? null : blur,
    grid,
    dst: clamped(target.data),
    width: target.width,
    acc: newScratch(),
  };
  // One call per row: V8 optimises a small function called often far better than one long loop.
  for (let y = rows.y0; y < rows.y1; y++) {
    if (grid) lerpGridRows(grid, y);
    warpRow(ctx, y, rows.from[y - rows.y0] as number, rows.to[y - rows.y0] as number);
  }
}

/**
 * The blur levels evaluated on a coarse grid of target px, `step` px apart (each point: the
 * stacked levels' premultiplied colour and what still shows under them), for the warp to
 * interpolate bilinearly per pixel: a blurred level has no detail finer than its blur, so with
 * `step` at most half the smallest level's blur as projected, a linear interpolation stays
 * within about 2 levels of 8-bit colour of sampling every pixel, at 1 / step^2 of the taps.
 * `row` holds the grid interpolated at the current target row (lerpGridRows).
 */
interface BlurGrid {
  step: number;
  gx: number;
  gy: number;
  gw: number;
  /** 5 floats per point: premultiplied r, g, b, a (x 255) and the rest (0..1). */
  values: Float32Array;
  row: Float32Array;
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

function blurGrid(
  blur: BlurredLayer,
  inv: Mat3,
  layer: StraightLayer,
  rows: QuadRows,
  step: number,
): BlurGrid {
  const { x0, x1 } = columnExtent(rows) ?? { x0: 0, x1: 0 };
  // The grid starts one step before (x0, y0) so every pixel centre has points on both sides.
  const gx = x0 - step;
  const gy = rows.y0 - step;
  const gw = Math.ceil((x1 - x0) / step) + 3;
  const gh = Math.ceil((rows.y1 - rows.y0) / step) + 3;
  const values = new Float32Array(gw * gh * 5);
  const acc = newScratch();
  for (let j = 0; j < gh; j++)
    blurGridRow(blur, inv, layer, values, gw, j, gx, gy + (j + 0.5) * step, step, acc);
  return { step, gx, gy, gw, values, row: new Float32Array(gw * 5) };
}

/** Grid row `j` at target y `py`: the blur levels through the inverse map at each point. */
function blurGridRow(
  blur: BlurredLayer,
  inv: Mat3,
  layer: StraightLayer,
  values: Float32Array,
  gw: number,
  j: number,
  gx: number,
  py: number,
  step: number,
  acc: Float64Array,
): void {
  const [a, b, c, d, e, f, g, hh, ii] = inv;
  const lx = layer.x + 0.5;
  const ly = layer.y + 0.5;
  for (let i = 0, k = j * gw * 5; i < gw; i++, k += 5) {
    const px = gx + (i + 0.5) * step;
    const w = g * px + hh * py + ii;
    clearColour(acc);
    let rest = 1;
    if (w > 0) {
      const sx = (a * px + b * py + c) / w;
      const sy = (d * px + e * py + f) / w;
      acc[BLUR_T] = blurParam(blur.geometry, sx, sy);
      acc[BLUR_X] = sx - lx;
      acc[BLUR_Y] = sy - ly;
      blurTaps(blur, acc);
      rest = acc[BLUR_REST] as number;
    }
    values[k] = acc[0] as number;
    values[k + 1] = acc[1] as number;
    values[k + 2] = acc[2] as number;
    values[k + 3] = acc[3] as number;
    values[k + 4] = rest;
  }
}

/** The grid interpolated at target row `y` into `grid.row`. */
function lerpGridRows(grid: BlurGrid, y: number): void {
  const v = (y + 0.5 - grid.gy) / grid.step - 0.5;
  const j = Math.floor(v);
  const ay = v - j;
  const { values, row } = grid;
  const n = grid.gw * 5;
  for (let i = 0, k = j * n; i < n; i++, k++)
    row[i] = (values[k] as number) * (1 - ay) + (values[k + n] as number) * ay;
}

interface WarpRow {
  inv: Mat3;
  layer: StraightLayer;
  /** Blur levels sampled per pixel (when no grid is coarse enough to pay). */
  blur: BlurredLayer | null;
  /** Blur levels interpolated from a coarse grid, its row at the current y ready. */
  grid: BlurGrid | null;
  dst: Uint8ClampedArray;
  width: number;
  acc: Float64Array;
}

/**
 * The blur levels at layer index-space (`acc[BLUR_X]`, `acc[BLUR_Y]`) for mask parameter
 * `acc[BLUR_T]`, top level first, into the colour slots; leaves in `acc[BLUR_REST]` how much of
 * what lies under them still shows (0..1).
 */
function blurTaps(blur: BlurredLayer, acc: Float64Array): void {
  const fx = acc[BLUR_X] as number;
  const fy = acc[BLUR_Y] as number;
  const q = ((acc[BLUR_T] as number) - blur.t0) * blur.perT + 0.5;
  const k = q <= 0 ? 0 : q >= BLUR_TABLE - 1 ? BLUR_TABLE - 1 : q | 0;
  const { levels, weights } = blur;
  let rest = 1;
  for (let l = levels.length - 1; l >= 0 && rest > 1 / 1024; l--) {
    const wl = weights[l * BLUR_TABLE + k] as number;
    if (wl <= 0) continue;
    const lv = levels[l] as BlurLevel;
    acc[TAP_X] = (fx + 0.5) * lv.sx - 0.5;
    acc[TAP_Y] = (fy + 0.5) * lv.sy - 0.5;
    acc[TAP_WEIGHT] = wl * rest;
    tap(lv.data, lv.width, lv.height, acc);
    rest *= 1 - (wl * (acc[TAP_ALPHA] as number)) / 255;
  }
  acc[BLUR_REST] = rest;
}

/** Target pixels [x0, x1) of row `y` (see warpOnto). */
function warpRow(ctx: WarpRow, y: number, x0: number, x1: number): void {
  const [a, b, c, d, e, f, g, hh, ii] = ctx.inv;
  const { layer, dst, acc, blur, grid } = ctx;
  const src = layer.data;
  const W = layer.width;
  const H = layer.height;
  const lx = layer.x + 0.5;
  const ly = layer.y + 0.5;
  const py = y + 0.5;
  let u = a * (x0 + 0.5) + b * py + c;
  let v = d * (x0 + 0.5) + e * py + f;
  let w = g * (x0 + 0.5) + hh * py + ii;
  for (let x = x0; x < x1; x++, u += a, v += d, w += g) {
    if (w <= 0) continue;
    const iw = 1 / w;
    const sx = u * iw;
    const sy = v * iw;
    const fx = sx - lx;
    const fy = sy - ly;
    // Beyond a source px or so of the layer, no tap can reach it (spans are padded by 2 px).
    if (fx <= -3 || fy <= -3 || fx >= W + 2 || fy >= H + 2) continue;
    const i = (y * ctx.width + x) * 4;
    clearColour(acc);
    let rest = 1;
    if (grid) {
      const gu = (x + 0.5 - grid.gx) / grid.step - 0.5;
      const iu = Math.floor(gu);
      const au = gu - iu;
      const r = grid.row;
      const k = iu * 5;
      acc[0] = (r[k] as number) * (1 - au) + (r[k + 5] as number) * au;
      acc[1] = (r[k + 1] as number) * (1 - au) + (r[k + 6] as number) * au;
      acc[2] = (r[k + 2] as number) * (1 - au) + (r[k + 7] as number) * au;
      acc[3] = (r[k + 3] as number) * (1 - au) + (r[k + 8] as number) * au;
      rest = (r[k + 4] as number) * (1 - au) + (r[k + 9] as number) * au;
    } else if (blur) {
      acc[BLUR_T] = blurParam(blur.geometry, sx, sy);
      acc[BLUR_X] = fx;
      acc[BLUR_Y] = fy;
      blurTaps(blur, acc);
      rest = acc[BLUR_REST] as number;
    }
    if (rest > 1 / 1024) {
      // Footprint: the columns of the inverse map's Jacobian at this pixel.
      const jxx = (a - g * sx) * iw;
      const jyx = (d - g * sy) * iw;
      const jxy = (b - hh * sx) * iw;
      const jyy = (e - hh * sy) * iw;
      const nx = samples(jxx * jxx + jyx * jyx);
      const ny = samples(jxy * jxy + jyy * jyy);
      const ix = Math.floor(fx);
      const iy = Math.floor(fy);
      if (nx === 1 && ny === 1 && ix >= 0 && iy >= 0 && ix < W - 1 && iy < H - 1) {
        // The common case, inline: one bilinear sample inside the layer, premultiplied.
        const ax = fx - ix;
        const ay = fy - iy;
        const k = (iy * W + ix) * 4;
        const k2 = k + W * 4;
        const p = rest / 255;
        const a00 = (src[k + 3] as number) * (1 - ax) * (1 - ay) * p;
        const a10 = (src[k + 7] as number) * ax * (1 - ay) * p;
        const a01 = (src[k2 + 3] as number) * (1 - ax) * ay * p;
        const a11 = (src[k2 + 7] as number) * ax * ay * p;
        acc[0] =
          (acc[0] as number) +
          (src[k] as number) * a00 +
          (src[k + 4] as number) * a10 +
          (src[k2] as number) * a01 +
          (src[k2 + 4] as number) * a11;
        acc[1] =
          (acc[1] as number) +
          (src[k + 1] as number) * a00 +
          (src[k + 5] as number) * a10 +
          (src[k2 + 1] as number) * a01 +
          (src[k2 + 5] as number) * a11;
        acc[2] =
          (acc[2] as number) +
          (src[k + 2] as number) * a00 +
          (src[k + 6] as number) * a10 +
          (src[k2 + 2] as number) * a01 +
          (src[k2 + 6] as number) * a11;
        acc[3] = (acc[3] as number) + (a00 + a10 + a01 + a11) * 255;
        overPremul(dst, i, acc);
        continue;
      }
      if (nx === 1 && ny === 1) {
        acc[TAP_X] = fx;
        acc[TAP_Y] = fy;
        acc[TAP_WEIGHT] = rest;
        tap(src, W, H, acc);
      } else {
        acc[TAP_WEIGHT] = rest / (nx * ny);
        for (let q = 0; q < ny; q++) {
          const oy = (q + 0.5) / ny - 0.5;
          for (let p = 0; p < nx; p++) {
            const ox = (p + 0.5) / nx - 0.5;
            acc[TAP_X] = fx + jxx * ox + jxy * oy;
            acc[TAP_Y] = fy + jyx * ox + jyy * oy;
            tap(src, W, H, acc);
          }
        }
      }
    }
    overPremul(dst, i, acc);
  }
}
