import { apply, corners, type Mat3, type Point } from '../camera/camera-math.ts';
import type { Rect } from '../scene-types.ts';

/** For each target row y0..y1-1, the pixel columns [from, to) a warp has to visit. */
export interface QuadRows {
  y0: number;
  y1: number;
  from: Int32Array;
  to: Int32Array;
}

/**
 * The target pixels that rect `r` reaches through homography `h`, row by row, padded by `pad`
 * px (bilinear taps and the footprint of a minified pixel reach past the quad's edge). A
 * projected rect is a convex quad, so each row's extent is where the quad's edges cross that
 * row's band. Null when nothing lands on the target. When a corner lies behind the camera
 * (no proper quad), every pixel of the target is visited and the warp skips what it must.
 */
export function quadRows(
  h: Mat3,
  r: Rect,
  target: { width: number; height: number },
  pad = 2,
): QuadRows | null {
  const flat = corners(r);
  const behind = flat.some((p) => h[6] * p.x + h[7] * p.y + h[8] <= 0);
  const quad = flat.map((p) => apply(h, p.x, p.y));
  const ys = quad.map((p) => p.y);
  const y0 = behind ? 0 : Math.max(0, Math.floor(Math.min(...ys) - pad));
  const y1 = behind ? target.height : Math.min(target.height, Math.ceil(Math.max(...ys) + pad));
  if (y1 <= y0) return null;
  const from = new Int32Array(y1 - y0);
  const to = new Int32Array(y1 - y0);
  for (let y = y0; y < y1; y++) {
    if (behind) {
      to[y - y0] = target.width;
      continue;
    }
    const lo = y - pad;
    const hi = y + 1 + pad;
    let min = Number.POSITIVE_INFINITY;
    let max = Number.NEGATIVE_INFINITY;
    for (let k = 0; k < 4; k++) {
      const p = quad[k] as { x: number; y: number };
      const q = quad[(k + 1) % 4] as { x: number; y: number };
      const top = Math.max(lo, Math.min(p.y, q.y));
      const bottom = Math.min(hi, Math.max(p.y, q.y));
      if (top > bottom) continue;
      const dy = q.y - p.y;
      const xa = dy === 0 ? p.x : p.x + ((q.x - p.x) * (top - p.y)) / dy;
      const xb = dy === 0 ? q.x : p.x + ((q.x - p.x) * (bottom - p.y)) / dy;
      min = Math.min(min, xa, xb);
      max = Math.max(max, xa, xb);
    }
    if (max < min) continue;
    from[y - y0] = Math.max(0, Math.floor(min - pad));
    to[y - y0] = Math.max(0, Math.min(target.width, Math.ceil(max + pad)));
  }
  return { y0, y1, from, to };
}

/** Where the horizontal line at `y` crosses a convex quad: its x-range, or null when it misses it. */
function lineSpan(quad: Point[], y: number): [number, number] | null {
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < quad.length; k++) {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % quad.length] as Point;
    if ((y < p.y && y < q.y) || (y > p.y && y > q.y) || p.y === q.y) continue;
    const x = p.x + ((q.x - p.x) * (y - p.y)) / (q.y - p.y);
    min = Math.min(min, x);
    max = Math.max(max, x);
  }
  return max >= min ? [min, max] : null;
}

/** The columns [x0, x1) that any row of `rows` visits, or null when every row is empty. */
export function columnExtent(rows: QuadRows): { x0: number; x1: number } | null {
  let x0 = Number.POSITIVE_INFINITY;
  let x1 = 0;
  for (let k = 0; k < rows.from.length; k++) {
    if ((rows.to[k] as number) <= (rows.from[k] as number)) continue;
    x0 = Math.min(x0, rows.from[k] as number);
    x1 = Math.max(x1, rows.to[k] as number);
  }
  return x1 > x0 ? { x0, x1 } : null;
}

/**
 * The x-range inside a convex quad on every horizontal line from `top` to `bottom` (a convex
 * shape holds every point between two of its points, so the two lines bound it), or null.
 */
export function insideRange(quad: Point[], top: number, bottom: number): [number, number] | null {
  const a = lineSpan(quad, top);
  const b = lineSpan(quad, bottom);
  if (!a || !b) return null;
  const lo = Math.max(a[0], b[0]);
  const hi = Math.min(a[1], b[1]);
  return hi > lo ? [lo, hi] : null;
}

/**
 * The pixels [from, to) of row `y` that lie wholly inside a convex quad: inside on the lines
 * just above and below the row, less a pixel each side. [0, 0) when there are none.
 */
export function innerSpan(quad: Point[], y: number): [number, number] {
  const r = insideRange(quad, y - 0.5, y + 1.5);
  if (!r) return [0, 0];
  const from = Math.ceil(r[0] + 1);
  const to = Math.floor(r[1] - 1);
  return to > from ? [from, to] : [0, 0];
}
