import type { DepthBlurDirection, DepthBlurType } from '@vitrine/contract';
import type { Mat3, Point } from '../camera/camera-math.ts';
import type { Rect } from '../scene-types.ts';

export type { DepthBlurDirection, DepthBlurType };

/** Resolved depth-blur settings (the request fields with their per-type defaults). */
export interface DepthBlurSettings {
  depth_blur: number;
  depth_blur_type: DepthBlurType;
  depth_blur_direction: DepthBlurDirection;
  depth_blur_angle: number;
  depth_blur_position: number;
  depth_blur_band: number;
  depth_blur_width: number;
}

/** One stop of a piecewise-linear profile: value `m` at gradient parameter `t`. */
export interface BlurStop {
  t: number;
  m: number;
}

/**
 * The gradient parameter over the flat frame layer, like a CSS gradient's: `linear`:
 * t = ((p - origin) . dir) / unit; `radial`: t = |((p - centre) / radii)|.
 */
export type MaskGeometry =
  | { kind: 'linear'; origin: Point; dir: Point; unit: number }
  | { kind: 'radial'; centre: Point; rx: number; ry: number };

/**
 * Depth blur as the renderers draw it: the flat frame layer blurred at each of `sigmas` (px),
 * the copies stacked sharp-first, copy i (1-based) masked by `levelStops(stops, sigmas.length, i)`
 * along `geometry`. Stacked source-over, that is a blend between adjacent levels by the profile.
 */
export interface SceneDepthBlur {
  type: DepthBlurType;
  sigmas: number[];
  geometry: MaskGeometry;
  /** Blur amount 0..1 along the gradient parameter. */
  stops: BlurStop[];
}

/** Blur levels above the sharp layer. */
export const BLUR_LEVELS = 3;
/** Sigma at strength 100 as a fraction of the frame's larger side. */
const MAX_SIGMA = 0.024;

/** Smoothstep from 0 at `a` to 1 at `b` as 9 stops (piecewise linear within 1/250). */
function ramp(a: number, b: number, up: boolean): BlurStop[] {
  return Array.from({ length: 9 }, (_, i) => {
    const s = i / 8;
    const e = s * s * (3 - 2 * s);
    return { t: a + (b - a) * s, m: up ? e : 1 - e };
  });
}

const DIRS: Record<DepthBlurDirection, Point> = {
  top: { x: 0, y: -1 },
  bottom: { x: 0, y: 1 },
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
};

/** `v` turned clockwise (y down) by `deg`. */
function turn(v: Point, deg: number): Point {
  const a = (deg * Math.PI) / 180;
  return { x: v.x * Math.cos(a) - v.y * Math.sin(a), y: v.x * Math.sin(a) + v.y * Math.cos(a) };
}

function linear(frame: Rect, dir: Point): Extract<MaskGeometry, { kind: 'linear' }> {
  const origin = { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 };
  const unit = Math.abs((frame.width / 2) * dir.x) + Math.abs((frame.height / 2) * dir.y);
  return { kind: 'linear', origin, dir, unit: Math.max(unit, 1) };
}

/** A band kept sharp around t = centre (half-width `half`), ramping to full blur over `fall`. */
const band = (centre: number, half: number, fall: number): BlurStop[] => [
  ...ramp(centre - half - fall, centre - half, false),
  ...ramp(centre + half, centre + half + fall, true),
];

/**
 * Plans the depth blur of a flat frame `frame` (px): `dir` ramps towards depth_blur_direction
 * turned by depth_blur_angle; `radial` keeps an ellipse of radius `band` sharp; `tilt` keeps a
 * band at `position` (0 top .. 1 bottom before turning by the angle) sharp; `lens` keeps the
 * part of the tilted plane near the focal depth sharp (`position` 0 = the far edge, 1 = the near
 * edge), blurring with the depth difference: `rotation` is the camera's; an untilted camera
 * falls back to `tilt`. Null when the strength is 0.
 */
export function planDepthBlur(
  s: DepthBlurSettings,
  frame: Rect,
  rotation: Mat3 | null,
): SceneDepthBlur | null {
  if (s.depth_blur <= 0) return null;
  const size = Math.max(frame.width, frame.height);
  const top = (MAX_SIGMA * size * s.depth_blur) / 100;
  const sigmas = Array.from({ length: BLUR_LEVELS }, (_, i) => (top * (i + 1)) / BLUR_LEVELS);
  const p0 = 2 * s.depth_blur_position - 1;
  const tiltPlan = (): SceneDepthBlur => ({
    type: s.depth_blur_type,
    sigmas,
    geometry: linear(frame, turn({ x: 0, y: 1 }, s.depth_blur_angle)),
    stops: band(p0, s.depth_blur_band, 2 * s.depth_blur_width),
  });
  switch (s.depth_blur_type) {
    case 'dir': {
      const a = 1 - 2 * s.depth_blur_width;
      return {
        type: 'dir',
        sigmas,
        geometry: linear(frame, turn(DIRS[s.depth_blur_direction], s.depth_blur_angle)),
        stops: ramp(a, Math.max(a + 0.01, 1), true),
      };
    }
    case 'radial':
      return {
        type: 'radial',
        sigmas,
        geometry: {
          kind: 'radial',
          centre: { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 },
          rx: (frame.width / 2) * Math.SQRT2,
          ry: (frame.height / 2) * Math.SQRT2,
        },
        stops: ramp(s.depth_blur_band, s.depth_blur_band + s.depth_blur_width, true),
      };
    case 'tilt':
      return tiltPlan();
    case 'lens': {
      const g = rotation ? Math.hypot(rotation[6], rotation[7]) : 0;
      if (!rotation || g < Math.sin((2 * Math.PI) / 180)) return tiltPlan();
      const geometry = linear(frame, { x: rotation[6] / g, y: rotation[7] / g });
      // t -> depth difference from the focus as a fraction of half the frame's size.
      const perT = (geometry.unit * g) / (size / 2);
      return {
        type: 'lens',
        sigmas,
        geometry,
        stops: band(p0, s.depth_blur_band / perT, s.depth_blur_width / perT),
      };
    }
  }
}

/** The gradient parameter at pixel centre (x, y) of the flat layer. */
export function maskParam(g: MaskGeometry, x: number, y: number): number {
  if (g.kind === 'linear') return ((x - g.origin.x) * g.dir.x + (y - g.origin.y) * g.dir.y) / g.unit;
  return Math.hypot((x - g.centre.x) / g.rx, (y - g.centre.y) / g.ry);
}

/** Piecewise-linear value of `stops` at `t`, clamped to the end values (as CSS gradients do). */
export function evalStops(stops: BlurStop[], t: number): number {
  const first = stops[0];
  if (!first) return 0;
  if (t <= first.t) return first.m;
  for (let i = 1; i < stops.length; i++) {
    const b = stops[i] as BlurStop;
    if (t <= b.t) {
      const a = stops[i - 1] as BlurStop;
      return b.t > a.t ? a.m + ((b.m - a.m) * (t - a.t)) / (b.t - a.t) : b.m;
    }
  }
  return (stops[stops.length - 1] as BlurStop).m;
}

/**
 * The opacity profile of blur copy `level` (1-based) of `levels`: clamp(m * levels - level + 1)
 * with the crossings inserted as stops, so both renderers interpolate the same polyline.
 */
export function levelStops(stops: BlurStop[], levels: number, level: number): BlurStop[] {
  const f = (m: number) => Math.min(1, Math.max(0, m * levels - level + 1));
  const cuts = [(level - 1) / levels, level / levels];
  const out: BlurStop[] = [];
  stops.forEach((b, i) => {
    const a = stops[i - 1];
    if (a && b.m !== a.m) {
      const hits = cuts
        .map((c) => (c - a.m) / (b.m - a.m))
        .filter((u) => u > 0 && u < 1)
        .sort((p, q) => p - q);
      for (const u of hits) out.push({ t: a.t + (b.t - a.t) * u, m: f(a.m + (b.m - a.m) * u) });
    }
    out.push({ t: b.t, m: f(b.m) });
  });
  return out;
}
