import sharp from 'sharp';
import { evalStops, levelStops, type MaskGeometry, type SceneDepthBlur } from './depth-blur-mask.ts';

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

/** Reduction of a blur level of `sigma` layer px: its blurred copy has no detail finer than this. */
const reduction = (sigma: number) => (sigma >= 10 ? 4 : sigma >= 4 ? 2 : 1);

/** The layer downscaled by `f` (straight-alpha RGBA, sharp resizes on premultiplied alpha). */
async function downscaled(data: Buffer, width: number, height: number, f: number) {
  const w = Math.max(1, Math.round(width / f));
  const h = Math.max(1, Math.round(height / f));
  if (f === 1) return { data, width: w, height: h };
  const small = await sharp(data, { raw: { width, height, channels: 4 } })
    .resize(w, h, { fit: 'fill', kernel: 'linear' })
    .raw()
    .toBuffer();
  return { data: small, width: w, height: h };
}

/**
 * One blur level of a straight-alpha RGBA layer: the layer downscaled (once per reduction,
 * shared by the levels that use it) and blurred, and left small: a blurred image has no high
 * frequencies, so the warp samples it bilinearly where it is needed instead of paying for a
 * full-size upscale and blend of every level. The downscale is materialised before the blur:
 * in one sharp pipeline libvips recomputes the resize for every overlapping tile the blur's
 * kernel asks for (measured: 108 ms CPU for the three levels of a 1590x1050 layer, 40 ms so).
 */
async function blurredLevel(
  small: Promise<{ data: Buffer; width: number; height: number }>,
  width: number,
  height: number,
  sigma: number,
  f: number,
): Promise<BlurLevel> {
  const { data, width: w, height: h } = await small;
  const blurred = await sharp(data, { raw: { width: w, height: h, channels: 4 } })
    .blur(Math.max(0.3, sigma / f))
    .raw()
    .toBuffer();
  return { sigma, data: blurred, width: w, height: h, sx: w / width, sy: h / height };
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
  const copies = new Map<number, Promise<{ data: Buffer; width: number; height: number }>>();
  const copy = (f: number) => {
    let pending = copies.get(f);
    if (!pending) {
      pending = downscaled(src.data, width, height, f);
      copies.set(f, pending);
    }
    return pending;
  };
  const levels = await Promise.all(
    plan.sigmas.map((s) => blurredLevel(copy(reduction(s)), width, height, s, reduction(s))),
  );
  const [t0, t1] = paramRange(plan.geometry, src.x, src.y, width, height);
  const perT = (BLUR_TABLE - 1) / Math.max(t1 - t0, 1e-9);
  const weights = new Float32Array(levels.length * BLUR_TABLE);
  levels.forEach((_, l) => {
    const stops = levelStops(plan.stops, levels.length, l + 1);
    for (let k = 0; k < BLUR_TABLE; k++) weights[l * BLUR_TABLE + k] = evalStops(stops, t0 + k / perT);
  });
  return { levels, weights, t0, perT, geometry: plan.geometry };
}
