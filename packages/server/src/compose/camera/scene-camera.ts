import type { Rect } from '../scene-types.ts';
import {
  apply,
  bounds,
  corners,
  depthOf,
  type Mat3,
  mul3,
  PERSPECTIVE_FACTOR,
  type Point,
  planeProjection,
  quadToQuad,
  rotation,
  scale,
  translate,
} from './camera-math.ts';
import type { CameraValues } from './camera-presets.ts';

/** How much further a shadow falls per frame-size of height above the background (see shadowMatrix). */
const SHADOW_LIFT = 1.4;

/** Where a w x h frame's projection lands relative to its centre (the pivot). */
export interface ProjectedBox {
  width: number;
  height: number;
  /** Centre of the projected bounds minus the pivot. */
  dx: number;
  dy: number;
}

/** The projection of the frame about its own centre, for one flat frame size. */
export function pivotProjection(c: CameraValues, w: number, h: number): { matrix: Mat3; rotation: Mat3 } {
  const r = rotation(c);
  return { matrix: planeProjection(r, PERSPECTIVE_FACTOR * Math.max(w, h, 1)), rotation: r };
}

/** Bounds of a flat w x h frame after tilt and roll (before zoom and offsets), for the layout. */
export function projectedBox(c: CameraValues, w: number, h: number): ProjectedBox {
  const { matrix } = pivotProjection(c, w, h);
  const b = bounds(
    corners({ x: -w / 2, y: -h / 2, width: w, height: h }).map((p) => apply(matrix, p.x, p.y)),
  );
  return { width: b.width, height: b.height, dx: b.x + b.width / 2, dy: b.y + b.height / 2 };
}

/** The camera as the renderers use it. */
export interface PlacedCamera {
  values: CameraValues;
  /** Flat canvas px -> canvas px (CSS `matrix3d` of the frame layer with transform-origin 0 0). */
  matrix: Mat3;
  /** The frame's projected corners, clockwise from top-left. */
  quad: Point[];
  /** Rotation and the flat frame: for depth (lens blur) and the shadows. */
  rotation: Mat3;
  frame: Rect;
}

/**
 * Places the camera: the flat frame `frame` (px) turns about its centre and its projected bounds
 * are centred on `slot` (the centre the layout reserved for it); then zoom about that centre and
 * offsets as fractions of the canvas.
 */
export function placeCamera(
  c: CameraValues,
  frame: Rect,
  slot: Point,
  canvas: { width: number; height: number },
): PlacedCamera {
  const { matrix: proj, rotation: r } = pivotProjection(c, frame.width, frame.height);
  const box = projectedBox(c, frame.width, frame.height);
  const pivot = { x: frame.x + frame.width / 2, y: frame.y + frame.height / 2 };
  let m = mul3(proj, translate(-pivot.x, -pivot.y));
  m = mul3(translate(slot.x - box.dx, slot.y - box.dy), m);
  m = mul3(translate(-slot.x, -slot.y), m);
  m = mul3(scale(c.zoom), m);
  m = mul3(translate(slot.x + c.offset_x * canvas.width, slot.y + c.offset_y * canvas.height), m);
  const k = 1 / m[8];
  const matrix = m.map((v) => v * k) as Mat3;
  return {
    values: c,
    matrix,
    quad: corners(frame).map((p) => apply(matrix, p.x, p.y)),
    rotation: r,
    frame,
  };
}

/**
 * Where a shadow with flat offset `offset` (px) falls: each projected frame corner moves by the
 * offset times (1 + lift), lift growing with the corner's height above the background (its
 * depth towards the viewer, relative to the deepest corner). Returns the homography from the
 * flat frame to that quad: draw the shadow's flat, un-offset rounded rect through it, so parts
 * lifted further from the background fall further away and come out larger and softer.
 */
export function shadowMatrix(cam: PlacedCamera, offset: Point): Mat3 {
  const f = cam.frame;
  const pivot = { x: f.x + f.width / 2, y: f.y + f.height / 2 };
  const flat = corners(f);
  const depth = flat.map((p) => depthOf(cam.rotation, p.x - pivot.x, p.y - pivot.y));
  const low = Math.min(...depth);
  const size = Math.max(f.width, f.height, 1);
  const to = cam.quad.map((q, i) => {
    const lift = 1 + (SHADOW_LIFT * ((depth[i] as number) - low)) / size;
    return { x: q.x + offset.x * cam.values.zoom * lift, y: q.y + offset.y * cam.values.zoom * lift };
  });
  return quadToQuad(flat, to);
}
