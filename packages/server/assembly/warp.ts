/**
 * The homography warp of the raster renderer's frame layer, in AssemblyScript compiled to
 * WebAssembly with 128-bit SIMD (built by scripts/install.sh into packages/server/dist/warp.wasm;
 * loaded by src/compose/effects/warp-module.ts, which documents the semantics in warpOnto).
 *
 * Why WebAssembly: this loop visits every covered canvas pixel (1-1.6 million at dpr 1) with a
 * few bilinear taps each. In JavaScript each tap is scalar double arithmetic with a bounds check
 * per typed-array access; here a texel's four channels are one f32x4 and the warp's state lives in
 * registers. Measured (docs/decisions.md, "The warp in WebAssembly"): about 1.8x faster.
 *
 * Colour is accumulated premultiplied in f32x4 lanes r, g, b, a (each x 255). A texel's alpha byte
 * is forced to 255 before its lanes are weighted by (its alpha x bilinear weight / 255), so lane 3
 * carries the weighted alpha and lanes 0-2 the premultiplied colour in the same multiply.
 *
 * All inputs are in this module's memory, placed there by the loader: the parameter block
 * (f64 slots, P_* below), the layer, the canvas rows the quad touches, the row spans, and with
 * depth blur the reduced levels, their weight table and the coarse grid.
 *
 * The memory is shared (imported, `--sharedMemory`): the loader runs blurGrid and warp in bands
 * of rows, each with a parameter block of its own, on its thread and on a worker thread with a
 * second instance of this module at once (src/compose/effects/warp-bands.ts). A call writes
 * only its own rows (and its own grid-row buffer), so the bands never overlap.
 */

// Parameter block: f64 slots. Keep in step with PARAM in src/compose/effects/warp-module.ts.
const P_INV = 0; // 9 slots: the inverse homography (canvas px -> layer space), row-major
const P_LX = 9; // layer.x + 0.5
const P_LY = 10; // layer.y + 0.5
const P_W = 11; // layer width
const P_H = 12; // layer height
const P_SRC = 13; // layer pixels (straight RGBA)
const P_DST = 14; // canvas rows y0..y1 (straight RGBA)
const P_DW = 15; // canvas width
const P_Y0 = 16;
const P_Y1 = 17;
const P_FROM = 18; // i32 per row: first column to visit
const P_TO = 19; // i32 per row: column past the last
const P_BLUR = 20; // 0 none, 1 levels sampled per pixel, 2 levels from the coarse grid
const P_NLEV = 21;
const P_LEVELS = 22; // per level 5 f64: pixels pointer, width, height, sx, sy
const P_WEIGHTS = 23; // f32, BLUR_TABLE per level
const P_T0 = 24;
const P_PERT = 25;
const P_GKIND = 26; // 0 linear, 1 radial
const P_G = 27; // 5 slots: linear origin x, y, dir x, y, unit; radial centre x, y, rx, ry
const P_STEP = 32;
const P_GX = 33;
const P_GY = 34;
const P_GW = 35;
const P_GH = 36;
const P_VALUES = 37; // f32, 5 per grid point: premultiplied r, g, b, a and the rest
const P_ROW = 38; // f32, the grid interpolated at the current row (gw x 5, padded)
const P_GCOLS = 39; // i32 pairs per grid row: the columns [from, to) some visited pixel reads
const P_GR0 = 40; // the grid rows [P_GR0, P_GR1) this blurGrid call evaluates
const P_GR1 = 41;

const BLUR_TABLE = 4096;
const INV255: f32 = 1.0 / 255;
/** Below this, what lies under the blur levels no longer shows (as in the JavaScript it replaced). */
const REST_FLOOR: f32 = 1.0 / 1024;

/** A texel pair's bytes with both alpha bytes set to 255 (see the header). */
const OPAQUE_PAIR = i8x16(0, 0, 0, -1, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0);

// The blur of the current call (read once from the parameter block).
let levelCount: i32 = 0;
let levels: usize = 0;
let weights: usize = 0;
let t0: f64 = 0;
let perT: f64 = 0;
let radial = false;
let g0: f64 = 0;
let g1: f64 = 0;
let g2: f64 = 0;
let g3: f64 = 0;
let g4: f64 = 0;

/** The alpha of the last tap (0..255), and what shows under the last blurTaps (0..1). */
let tapAlpha: f32 = 0;
let blurRest: f32 = 0;

@inline function param(p: usize, slot: i32): f64 {
  return load<f64>(p + ((<usize>slot) << 3));
}

function readBlur(p: usize): void {
  levelCount = <i32>param(p, P_NLEV);
  levels = <usize>param(p, P_LEVELS);
  weights = <usize>param(p, P_WEIGHTS);
  t0 = param(p, P_T0);
  perT = param(p, P_PERT);
  radial = param(p, P_GKIND) == 1;
  g0 = param(p, P_G);
  g1 = param(p, P_G + 1);
  g2 = param(p, P_G + 2);
  g3 = param(p, P_G + 3);
  g4 = param(p, P_G + 4);
}

/** The depth blur's mask parameter at layer point (x, y) (blurParam in layer-blur.ts). */
@inline function maskParam(x: f64, y: f64): f64 {
  if (!radial) return ((x - g0) * g2 + (y - g1) * g3) / g4;
  const dx = (x - g0) / g2;
  const dy = (y - g1) / g3;
  return Math.sqrt(dx * dx + dy * dy);
}

@inline function lowTexel(pair: v128): v128 {
  return f32x4.convert_i32x4_u(i32x4.extend_low_i16x8_u(i16x8.extend_low_i8x16_u(pair)));
}

@inline function highTexel(pair: v128): v128 {
  return f32x4.convert_i32x4_u(i32x4.extend_high_i16x8_u(i16x8.extend_low_i8x16_u(pair)));
}

@inline function alphaAt(src: usize, k: i32): f32 {
  return <f32>load<u8>(src + <usize>k + 3);
}

/**
 * The four texels from byte offset `k` (top pair) and `k + rowBytes` (bottom pair), each
 * weighted by its own factor (its alpha x its bilinear weight x any scale), premultiplied.
 */
@inline function fourTexels(src: usize, k: i32, rowBytes: i32, w00: f32, w10: f32, w01: f32, w11: f32): v128 {
  const top = v128.or(v128.load64_zero(src + <usize>k), OPAQUE_PAIR);
  const bottom = v128.or(v128.load64_zero(src + <usize>(k + rowBytes)), OPAQUE_PAIR);
  return f32x4.add(
    f32x4.add(f32x4.mul(lowTexel(top), f32x4.splat(w00)), f32x4.mul(highTexel(top), f32x4.splat(w10))),
    f32x4.add(f32x4.mul(lowTexel(bottom), f32x4.splat(w01)), f32x4.mul(highTexel(bottom), f32x4.splat(w11))),
  );
}

/**
 * `weight` x the bilinear sample of the W x H image at index-space (fx, fy), premultiplied;
 * texels outside the image are transparent. Leaves the sample's alpha (0..255) in tapAlpha.
 */
function tap(src: usize, W: i32, H: i32, fx: f64, fy: f64, weight: f32): v128 {
  const fix = Math.floor(fx);
  const fiy = Math.floor(fy);
  const ix = <i32>fix;
  const iy = <i32>fiy;
  const ax = <f32>(fx - fix);
  const ay = <f32>(fy - fiy);
  if (ix >= 0 && iy >= 0 && ix < W - 1 && iy < H - 1) {
    const k = (iy * W + ix) * 4;
    const k2 = k + W * 4;
    const a00 = alphaAt(src, k) * (1 - ax) * (1 - ay);
    const a10 = alphaAt(src, k + 4) * ax * (1 - ay);
    const a01 = alphaAt(src, k2) * (1 - ax) * ay;
    const a11 = alphaAt(src, k2 + 4) * ax * ay;
    tapAlpha = a00 + a10 + a01 + a11;
    if (tapAlpha == 0) return f32x4.splat(0);
    const s = weight * INV255;
    return fourTexels(src, k, W * 4, a00 * s, a10 * s, a01 * s, a11 * s);
  }
  let alpha: f32 = 0;
  let sum = f32x4.splat(0);
  for (let j = 0; j < 2; j++) {
    const yy = iy + j;
    if (yy < 0 || yy >= H) continue;
    const wy = j ? ay : 1 - ay;
    for (let i = 0; i < 2; i++) {
      const xx = ix + i;
      if (xx < 0 || xx >= W) continue;
      const k = (yy * W + xx) * 4;
      const a = alphaAt(src, k) * (i ? ax : 1 - ax) * wy;
      alpha += a;
      const texel = lowTexel(v128.or(v128.load32_zero(src + <usize>k), OPAQUE_PAIR));
      sum = f32x4.add(sum, f32x4.mul(texel, f32x4.splat(a * weight * INV255)));
    }
  }
  tapAlpha = alpha;
  return sum;
}

/**
 * The blur levels at layer index-space (fx, fy) for mask parameter t, stacked top level first
 * (each weighted by its profile and by what the levels above leave showing), premultiplied.
 * Leaves in blurRest how much of what lies under them still shows.
 */
function blurTaps(t: f64, fx: f64, fy: f64): v128 {
  const q = (t - t0) * perT + 0.5;
  const k: i32 = q <= 0 ? 0 : q >= BLUR_TABLE - 1 ? BLUR_TABLE - 1 : <i32>q;
  let rest: f32 = 1;
  let sum = f32x4.splat(0);
  for (let l = levelCount - 1; l >= 0 && rest > REST_FLOOR; l--) {
    const wl = load<f32>(weights + ((<usize>(l * BLUR_TABLE + k)) << 2));
    if (wl <= 0) continue;
    const level = levels + <usize>(l * 40);
    const sx = load<f64>(level + 24);
    const sy = load<f64>(level + 32);
    const data = <usize>load<f64>(level);
    const w = <i32>load<f64>(level + 8);
    const h = <i32>load<f64>(level + 16);
    sum = f32x4.add(sum, tap(data, w, h, (fx + 0.5) * sx - 0.5, (fy + 0.5) * sy - 0.5, wl * rest));
    rest *= 1 - wl * tapAlpha * INV255;
  }
  blurRest = rest;
  return sum;
}

/** f32x4 -> 4 bytes, rounded half to even and clamped to 0..255, as a Uint8ClampedArray stores. */
@inline function packed(v: v128): v128 {
  const words = i32x4.trunc_sat_f32x4_s(f32x4.nearest(v));
  const shorts = i16x8.narrow_i32x4_s(words, words);
  return i8x16.narrow_i16x8_u(shorts, shorts);
}

/** Source-over of premultiplied `c` onto the straight-alpha canvas pixel at `dst`. */
@inline function over(dst: usize, c: v128): void {
  const a = f32x4.extract_lane(c, 3);
  if (a < 0.25) return;
  const k: f32 = 1 - a * INV255;
  const d = <f32>load<u8>(dst + 3);
  const under = lowTexel(v128.load32_zero(dst));
  if (d == 255) {
    // An opaque canvas (the usual background): a lerp, no division, and it stays opaque.
    v128.store32_lane(dst, packed(f32x4.add(c, f32x4.mul(under, f32x4.splat(k)))), 0);
    store<u8>(dst + 3, 255);
    return;
  }
  const da = d * k;
  const oa = a + da;
  const s = da * INV255;
  const u: f32 = <f32>255 / oa;
  const colour = f32x4.mul(f32x4.add(c, f32x4.mul(under, f32x4.splat(s))), f32x4.splat(u));
  v128.store32_lane(dst, packed(f32x4.replace_lane(colour, 3, oa)), 0);
}

/** Samples along one footprint axis of squared length `len2` layer px: one per px, 1..4. */
@inline function samples(len2: f64): i32 {
  return len2 <= 1.44 ? 1 : len2 <= 4.84 ? 2 : len2 <= 10.24 ? 3 : 4;
}

/**
 * The blur levels evaluated at the points of the coarse grid (P_GW x P_GH, P_STEP px apart)
 * that a visited pixel interpolates from (P_GCOLS): the quad of a tilted frame leaves a third
 * of its bounding box empty, and a point off the layer would tap every level for nothing.
 */
export function blurGrid(p: usize): void {
  readBlur(p);
  const a = param(p, P_INV), b = param(p, P_INV + 1), c = param(p, P_INV + 2);
  const d = param(p, P_INV + 3), e = param(p, P_INV + 4), f = param(p, P_INV + 5);
  const g = param(p, P_INV + 6), h = param(p, P_INV + 7), i = param(p, P_INV + 8);
  const lx = param(p, P_LX);
  const ly = param(p, P_LY);
  const step = param(p, P_STEP);
  const gx = param(p, P_GX);
  const gy = param(p, P_GY);
  const gw = <i32>param(p, P_GW);
  const gh = <i32>param(p, P_GH);
  const values = <usize>param(p, P_VALUES);
  const columns = <usize>param(p, P_GCOLS);
  const r0 = <i32>param(p, P_GR0);
  const r1 = min(<i32>param(p, P_GR1), gh);
  for (let row = r0; row < r1; row++) {
    const y = gy + (<f64>row + 0.5) * step;
    const first = load<i32>(columns + ((<usize>row) << 3));
    const last = load<i32>(columns + ((<usize>row) << 3) + 4);
    // Points no pixel reads are zeroed, not left as whatever the memory held (the row lerp
    // reads them, and stale bytes can be denormal or NaN floats).
    const rowStart = values + ((<usize>(row * gw * 5)) << 2);
    if (first >= last) memory.fill(rowStart, 0, (<usize>(gw * 5)) << 2);
    else {
      memory.fill(rowStart, 0, (<usize>(first * 5)) << 2);
      memory.fill(rowStart + ((<usize>(last * 5)) << 2), 0, (<usize>((gw - last) * 5)) << 2);
    }
    for (let col = first; col < last; col++) {
      const out = values + ((<usize>((row * gw + col) * 5)) << 2);
      const x = gx + (<f64>col + 0.5) * step;
      const w = g * x + h * y + i;
      let sum = f32x4.splat(0);
      let rest: f32 = 1;
      if (w > 0) {
        const sx = (a * x + b * y + c) / w;
        const sy = (d * x + e * y + f) / w;
        sum = blurTaps(maskParam(sx, sy), sx - lx, sy - ly);
        rest = blurRest;
      }
      v128.store(out, sum);
      store<f32>(out + 16, rest);
    }
  }
}

/** The grid interpolated at canvas row `y` into the row buffer (4 floats at a time). */
function lerpGridRow(y: i32, gy: f64, invStep: f64, gw: i32, values: usize, row: usize): void {
  const v = (<f64>y + 0.5 - gy) * invStep - 0.5;
  const fj = Math.floor(v);
  const ay = <f32>(v - fj);
  const n = gw * 5;
  const top = values + ((<usize>(<i32>fj * n)) << 2);
  const bottom = top + ((<usize>n) << 2);
  const wTop = f32x4.splat(1 - ay);
  const wBottom = f32x4.splat(ay);
  for (let k = 0; k < n; k += 4) {
    const o = (<usize>k) << 2;
    v128.store(row + o, f32x4.add(f32x4.mul(v128.load(top + o), wTop), f32x4.mul(v128.load(bottom + o), wBottom)));
  }
}

/** Draws the layer onto canvas rows P_Y0..P_Y1 through the inverse homography (warpOnto). */
export function warp(p: usize): void {
  const mode = <i32>param(p, P_BLUR);
  if (mode) readBlur(p);
  const a = param(p, P_INV), b = param(p, P_INV + 1), c = param(p, P_INV + 2);
  const d = param(p, P_INV + 3), e = param(p, P_INV + 4), f = param(p, P_INV + 5);
  const g = param(p, P_INV + 6), h = param(p, P_INV + 7), i = param(p, P_INV + 8);
  const lx = param(p, P_LX);
  const ly = param(p, P_LY);
  const W = <i32>param(p, P_W);
  const H = <i32>param(p, P_H);
  const src = <usize>param(p, P_SRC);
  const dst = <usize>param(p, P_DST);
  const dw = <i32>param(p, P_DW);
  const y0 = <i32>param(p, P_Y0);
  const y1 = <i32>param(p, P_Y1);
  const from = <usize>param(p, P_FROM);
  const to = <usize>param(p, P_TO);
  // The grid's step is a power of two: multiplying by its inverse is exact.
  const invStep = mode == 2 ? 1 / param(p, P_STEP) : 1;
  const gx = param(p, P_GX);
  const gy = param(p, P_GY);
  const gw = <i32>param(p, P_GW);
  const values = <usize>param(p, P_VALUES);
  const row = <usize>param(p, P_ROW);
  const right = <f64>W + 2;
  const bottom = <f64>H + 2;
  for (let y = y0; y < y1; y++) {
    if (mode == 2) lerpGridRow(y, gy, invStep, gw, values, row);
    const x0 = load<i32>(from + ((<usize>(y - y0)) << 2));
    const x1 = load<i32>(to + ((<usize>(y - y0)) << 2));
    const py = <f64>y + 0.5;
    let u = a * (<f64>x0 + 0.5) + b * py + c;
    let v = d * (<f64>x0 + 0.5) + e * py + f;
    let w = g * (<f64>x0 + 0.5) + h * py + i;
    for (let x = x0; x < x1; x++, u += a, v += d, w += g) {
      if (w <= 0) continue;
      const iw = 1 / w;
      const sx = u * iw;
      const sy = v * iw;
      const fx = sx - lx;
      const fy = sy - ly;
      // Beyond a layer px or so of the layer, no tap can reach it (spans are padded by 2 px).
      if (fx <= -3 || fy <= -3 || fx >= right || fy >= bottom) continue;
      const out = dst + <usize>(((y - y0) * dw + x) * 4);
      let sum = f32x4.splat(0);
      let rest: f32 = 1;
      if (mode == 2) {
        const gu = (<f64>x + 0.5 - gx) * invStep - 0.5;
        const fiu = Math.floor(gu);
        const au = <f32>(gu - fiu);
        const r = row + ((<usize>(<i32>fiu * 5)) << 2);
        sum = f32x4.add(f32x4.mul(v128.load(r), f32x4.splat(1 - au)), f32x4.mul(v128.load(r + 20), f32x4.splat(au)));
        rest = load<f32>(r + 16) * (1 - au) + load<f32>(r + 36) * au;
      } else if (mode == 1) {
        sum = blurTaps(maskParam(sx, sy), fx, fy);
        rest = blurRest;
      }
      if (rest > REST_FLOOR) {
        // Footprint: the columns of the inverse map's Jacobian at this pixel.
        const jxx = (a - g * sx) * iw;
        const jyx = (d - g * sy) * iw;
        const jxy = (b - h * sx) * iw;
        const jyy = (e - h * sy) * iw;
        const nx = samples(jxx * jxx + jyx * jyx);
        const ny = samples(jxy * jxy + jyy * jyy);
        const fix = Math.floor(fx);
        const fiy = Math.floor(fy);
        const ix = <i32>fix;
        const iy = <i32>fiy;
        if (nx == 1 && ny == 1 && ix >= 0 && iy >= 0 && ix < W - 1 && iy < H - 1) {
          // The common case: one bilinear sample inside the layer.
          const ax = <f32>(fx - fix);
          const ay = <f32>(fy - fiy);
          const k = (iy * W + ix) * 4;
          const k2 = k + W * 4;
          const s = rest * INV255;
          sum = f32x4.add(
            sum,
            fourTexels(
              src,
              k,
              W * 4,
              alphaAt(src, k) * (1 - ax) * (1 - ay) * s,
              alphaAt(src, k + 4) * ax * (1 - ay) * s,
              alphaAt(src, k2) * (1 - ax) * ay * s,
              alphaAt(src, k2 + 4) * ax * ay * s,
            ),
          );
        } else if (nx == 1 && ny == 1) {
          sum = f32x4.add(sum, tap(src, W, H, fx, fy, rest));
        } else {
          const weight = rest / <f32>(nx * ny);
          for (let q = 0; q < ny; q++) {
            const oy = (<f64>q + 0.5) / <f64>ny - 0.5;
            for (let s = 0; s < nx; s++) {
              const ox = (<f64>s + 0.5) / <f64>nx - 0.5;
              sum = f32x4.add(sum, tap(src, W, H, fx + jxx * ox + jxy * oy, fy + jyx * ox + jyy * oy, weight));
            }
          }
        }
      }
      over(out, sum);
    }
  }
}

/** Where the loader may start placing data (past this module's static data). */
export function heapBase(): usize {
  return __heap_base;
}

/**
 * Straight-alpha RGBA (W x H at `src`) halved on each axis into `out` (halved in layer-blur.ts
 * documents it): each output px the alpha-weighted mean of its 2 x 2 block, rounded; a block
 * past an odd edge repeats the last row or column. Arithmetic as the JavaScript it replaced
 * (f64, +0.5 then truncation), so the output is identical.
 */
export function halve(src: usize, W: i32, H: i32, out: usize): void {
  const w = (W + 1) >> 1;
  const h = (H + 1) >> 1;
  for (let y = 0; y < h; y++) {
    const r0 = src + <usize>(2 * y * W * 4);
    const r1 = src + <usize>(min(2 * y + 1, H - 1) * W * 4);
    let o = out + <usize>(y * w * 4);
    for (let x = 0; x < w; x++, o += 4) {
      const p00 = r0 + <usize>(8 * x);
      const p01 = r0 + <usize>(min(2 * x + 1, W - 1) * 4);
      const p10 = r1 + <usize>(8 * x);
      const p11 = r1 + <usize>(min(2 * x + 1, W - 1) * 4);
      const a00 = <i32>load<u8>(p00 + 3);
      const a01 = <i32>load<u8>(p01 + 3);
      const a10 = <i32>load<u8>(p10 + 3);
      const a11 = <i32>load<u8>(p11 + 3);
      const a = a00 + a01 + a10 + a11;
      store<u8>(o + 3, <u8>((a + 2) >> 2));
      if (a == 0) {
        store<u8>(o, 0);
        store<u8>(o + 1, 0);
        store<u8>(o + 2, 0);
        continue;
      }
      const k = 1 / <f64>a;
      for (let c: usize = 0; c < 3; c++) {
        const sum =
          <i32>load<u8>(p00 + c) * a00 +
          <i32>load<u8>(p01 + c) * a01 +
          <i32>load<u8>(p10 + c) * a10 +
          <i32>load<u8>(p11 + c) * a11;
        store<u8>(o + c, <u8>(<i32>(<f64>sum * k + 0.5)));
      }
    }
  }
}
