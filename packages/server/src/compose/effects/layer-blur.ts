import sharp from 'sharp';
import { evalStops, levelStops, type MaskGeometry, type SceneDepthBlur } from './depth-blur-mask.ts';
import { runHalve } from './warp-module.ts';

/** One blur level, kept at its reduced size (straight-alpha RGBA), `sx`, `sy` level px per layer px. */
export interface BlurLevel {
  /** Its blur, in layer px. */
  sigma: number;
  data: Buffer;
  width: number;
  height: number;
  sx: number;
  sy: number;
}

/**
 * The depth blur of a frame layer, ready for the warp to blend per target pixel: the blurred
 * levels at reduced size, and per level its opacity along the mask parameter in a table of
 * `BLUR_TABLE` entries from `t0` (`perT` entries per unit of t).
 */
export interface BlurredLayer {
  levels: BlurLevel[];
  weights: Float32Array;
  t0: number;
  perT: number;
  geometry: MaskGeometry;
}

/** Entries per level in BlurredLayer.weights: several per layer px along the mask's gradient. */
export const BLUR_TABLE = 4096;

/**
 * Reduction of a blur level of `sigma` layer px: the largest power of two (at most 16) that leaves
 * the reduced copy a blur of at least 3 of its px. A Gaussian that wide is reconstructed by the
 * warp's bilinear taps within about half a percent of an edge's contrast, and the copy costs
 * 1 / f^2 of the layer's pixels to blur (the levels of a lens blur at dpr 2 are 16 to 48 px).
 */
export function reduction(sigma: number): number {
  let f = 1;
  while (f < 16 && f * 2 * 3 <= sigma) f *= 2;
  return f;
}

/**
 * Straight-alpha RGBA halved on each axis: every output px the mean of its 2 x 2 block, weighted
 * by alpha (a mean of premultiplied colour, so transparent px add no dark fringe); a block past an
 * odd edge repeats the last row or column, so px i still centres on layer px 2i + 1. In place of
 * sharp's resize: the copy into libvips, premultiply and back cost more than the averaging itself
 * (measured: 57 ms CPU for a 3176x2096 layer to a quarter, 25 ms in JavaScript, and each further
 * halving reads only the last one); now in WebAssembly beside the warp (6 ms where JavaScript took 14-17, the bench look at dpr 1).
 */
export const halved = runHalve;

/**
 * One blur level of a straight-alpha RGBA layer: the layer reduced by `f` (shared by the levels
 * that use it) and blurred, and left small: a blurred image has no high frequencies, so the warp
 * samples it bilinearly where it is needed instead of paying for a full-size upscale and blend
 * of every level. The reduction's own 2 x 2 means already blur a little (a box of f px: variance
 * (f^2 - 1) / 12 px^2); the Gaussian makes up the rest, so the level's blur is `sigma`.
 */
async function blurredLevel(
  small: Promise<{ data: Buffer; width: number; height: number }>,
  sigma: number,
  f: number,
): Promise<BlurLevel> {
  const { data, width: w, height: h } = await small;
  const rest = Math.sqrt(Math.max(0, sigma * sigma - (f * f - 1) / 12)) / f;
  const blurred = await sharp(data, { raw: { width: w, height: h, channels: 4 } })
    .blur(Math.max(0.3, rest))
    .raw()
    .toBuffer();
  return { sigma, data: blurred, width: w, height: h, sx: 1 / f, sy: 1 / f };
}

/** The range of the mask parameter over a w x h layer at (x, y): a linear one peaks at corners. */
function paramRange(g: MaskGeometry, x: number, y: number, w: number, h: number): [number, number] {
  const ts = [
    [x, y],
    [x + w, y],
    [x, y + h],
    [x + w, y + h],
  ].map(([px = 0, py = 0]) =>
    g.kind === 'linear'
      ? ((px - g.origin.x) * g.dir.x + (py - g.origin.y) * g.dir.y) / g.unit
      : Math.hypot((px - g.centre.x) / g.rx, (py - g.centre.y) / g.ry),
  );
  return [g.kind === 'radial' ? 0 : Math.min(...ts), Math.max(...ts)];
}

/** The mask parameter at point (x, y) of the flat layer (as maskParam, without a call per pixel). */
export function blurParam(g: MaskGeometry, x: number, y: number): number {
  if (g.kind === 'linear') return ((x - g.origin.x) * g.dir.x + (y - g.origin.y) * g.dir.y) / g.unit;
  const dx = (x - g.centre.x) / g.rx;
  const dy = (y - g.centre.y) / g.ry;
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * Depth blur of the flat frame layer (straight-alpha RGBA at `x`, `y`): every level of the plan
 * blurred at reduced size, and each level's opacity profile (levelStops) tabulated over the
 * layer's range of the mask parameter. The warp stacks the levels over the sharp layer per
 * target pixel (see warpOnto). Blurring the layer alone (never the background) lets the
 * frame's edge fade into whatever is under it, with no dark or light halo.
 */
export async function blurLayer(
  src: { data: Buffer; width: number; height: number; x: number; y: number },
  plan: SceneDepthBlur,
): Promise<BlurredLayer> {
  const { width, height } = src;
  // Copies by powers of two, each halved from the one before it.
  const copies = new Map<number, Promise<{ data: Buffer; width: number; height: number }>>([
    [1, Promise.resolve({ data: src.data, width, height })],
  ]);
  const copy = (f: number): Promise<{ data: Buffer; width: number; height: number }> => {
    let pending = copies.get(f);
    if (!pending) {
      pending = copy(f / 2).then(halved);
      copies.set(f, pending);
    }
    return pending;
  };
  const levels = await Promise.all(plan.sigmas.map((s) => blurredLevel(copy(reduction(s)), s, reduction(s))));
  const [t0, t1] = paramRange(plan.geometry, src.x, src.y, width, height);
  const perT = (BLUR_TABLE - 1) / Math.max(t1 - t0, 1e-9);
  const weights = new Float32Array(levels.length * BLUR_TABLE);
  levels.forEach((_, l) => {
    const stops = levelStops(plan.stops, levels.length, l + 1);
    for (let k = 0; k < BLUR_TABLE; k++) weights[l * BLUR_TABLE + k] = evalStops(stops, t0 + k / perT);
  });
  return { levels, weights, t0, perT, geometry: plan.geometry };
}
