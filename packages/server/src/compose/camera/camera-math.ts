import type { CameraValues } from './camera-presets.ts';

/** A 3x3 matrix, row-major: a 2D homography when it maps (x, y, 1). */
export type Mat3 = [number, number, number, number, number, number, number, number, number];

export interface Point {
  x: number;
  y: number;
}

/**
 * Camera distance as a multiple of the frame's larger side: CSS `perspective()` of the frame
 * layer. Relative to the frame, so the look does not depend on the output size.
 */
export const PERSPECTIVE_FACTOR = 2.2;

const RAD = Math.PI / 180;

/** Row-major product a * b. */
export function mul3(a: Mat3, b: Mat3): Mat3 {
  const o = new Array(9).fill(0) as Mat3;
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      o[r * 3 + c] =
        (a[r * 3] as number) * (b[c] as number) +
        (a[r * 3 + 1] as number) * (b[3 + c] as number) +
        (a[r * 3 + 2] as number) * (b[6 + c] as number);
  return o;
}

/**
 * The 3D rotation of CSS `rotateX(tilt_x) rotateY(tilt_y) rotateZ(roll)` (y down, z towards
 * the viewer), row-major: p' = R p.
 */
export function rotation(c: Pick<CameraValues, 'tilt_x' | 'tilt_y' | 'roll'>): Mat3 {
  const [ax, ay, az] = [c.tilt_x * RAD, c.tilt_y * RAD, c.roll * RAD];
  const rx: Mat3 = [1, 0, 0, 0, Math.cos(ax), -Math.sin(ax), 0, Math.sin(ax), Math.cos(ax)];
  const ry: Mat3 = [Math.cos(ay), 0, Math.sin(ay), 0, 1, 0, -Math.sin(ay), 0, Math.cos(ay)];
  const rz: Mat3 = [Math.cos(az), -Math.sin(az), 0, Math.sin(az), Math.cos(az), 0, 0, 0, 1];
  return mul3(mul3(rx, ry), rz);
}

/**
 * The homography of a plane rotated by `r` about its origin and seen through CSS
 * `perspective(d)`: (x, y) relative to the pivot -> projected (x, y) relative to the pivot.
 */
export function planeProjection(r: Mat3, d: number): Mat3 {
  return [r[0], r[1], 0, r[3], r[4], 0, -r[6] / d, -r[7] / d, 1];
}

/** Depth (towards the viewer) of pivot-relative point (x, y) after rotation `r`. */
export const depthOf = (r: Mat3, x: number, y: number): number => r[6] * x + r[7] * y;

export const translate = (x: number, y: number): Mat3 => [1, 0, x, 0, 1, y, 0, 0, 1];
export const scale = (s: number): Mat3 => [s, 0, 0, 0, s, 0, 0, 0, 1];
export const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];

/** Applies a homography to a point. */
export function apply(h: Mat3, x: number, y: number): Point {
  const w = h[6] * x + h[7] * y + h[8];
  return { x: (h[0] * x + h[1] * y + h[2]) / w, y: (h[3] * x + h[4] * y + h[5]) / w };
}

/** Inverse of a 3x3 matrix (adjugate / determinant). */
export function invert(m: Mat3): Mat3 {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-12) throw new RangeError('singular matrix');
  const k = 1 / det;
  return [
    A * k,
    -(b * i - c * h) * k,
    (b * f - c * e) * k,
    B * k,
    (a * i - c * g) * k,
    -(a * f - c * d) * k,
    C * k,
    -(a * h - b * g) * k,
    (a * e - b * d) * k,
  ];
}

/** The homography taking the four `from` points to the four `to` points (solved 8x8 system). */
export function quadToQuad(from: Point[], to: Point[]): Mat3 {
  const rows: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const { x, y } = from[k] as Point;
    const { x: u, y: v } = to[k] as Point;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting.
  for (let c = 0; c < 8; c++) {
    let p = c;
    for (let r = c + 1; r < 8; r++)
      if (Math.abs((rows[r] as number[])[c] as number) > Math.abs((rows[p] as number[])[c] as number)) p = r;
    [rows[c], rows[p]] = [rows[p] as number[], rows[c] as number[]];
    const pr = rows[c] as number[];
    const pv = pr[c] as number;
    if (Math.abs(pv) < 1e-12) throw new RangeError('degenerate quad');
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const row = rows[r] as number[];
      const f = (row[c] as number) / pv;
      if (f !== 0) for (let k = c; k < 9; k++) row[k] = (row[k] as number) - f * (pr[k] as number);
    }
  }
  const s = rows.map((row, r) => (row[8] as number) / (row[r] as number));
  return [...s, 1] as Mat3;
}

/** The four corners of a rect, clockwise from top-left. */
export function corners(r: { x: number; y: number; width: number; height: number }): Point[] {
  return [
    { x: r.x, y: r.y },
    { x: r.x + r.width, y: r.y },
    { x: r.x + r.width, y: r.y + r.height },
    { x: r.x, y: r.y + r.height },
  ];
}

/** Axis-aligned bounds of points. */
export function bounds(points: Point[]): { x: number; y: number; width: number; height: number } {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}
