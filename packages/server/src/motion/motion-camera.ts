/**
 * The camera of each frame of a motion: a reveal goes from flat to the look's own camera (or
 * zooms in gently when the look is flat), a float sways around it in a loop, a drift turns it a
 * little during a scroll. Everything else of the look stays as resolved.
 */
import type { CameraValues } from '../compose/camera/camera-presets.ts';
import type { MotionPlan } from './motion-plan.ts';
import { loopPhaseAt, progressAt } from './motion-plan.ts';

/** The camera fields of a resolved look a motion moves (the frame scale stays, or the layout would). */
export type MotionCamera = Omit<CameraValues, 'frame_scale'>;

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

/** Where a reveal of a flat look starts: a little smaller, so the look grows into place. */
export const REVEAL_START_ZOOM = 0.86;
/** A float's sway (degrees) and bob (fraction of the canvas height). */
export const FLOAT_SWAY = { tilt_x: 4, tilt_y: 7, bob: 0.012 };
/** A drift's turn across a scroll (degrees about the vertical axis). */
export const DRIFT_DEGREES = 6;

const tilted = (c: MotionCamera) => c.tilt_x !== 0 || c.tilt_y !== 0 || c.roll !== 0;

/** The camera at frame `index` of `plan`, around the look's own `base` camera. */
export function cameraAt(plan: MotionPlan, base: MotionCamera, index: number): MotionCamera {
  switch (plan.type) {
    case 'scroll': {
      if (!plan.drift) return base;
      const p = progressAt(plan, index);
      return { ...base, tilt_y: base.tilt_y + lerp(-DRIFT_DEGREES / 2, DRIFT_DEGREES / 2, p) };
    }
    case 'reveal': {
      const p = progressAt(plan, index);
      if (!tilted(base)) return { ...base, zoom: lerp(base.zoom * REVEAL_START_ZOOM, base.zoom, p) };
      return {
        tilt_x: lerp(0, base.tilt_x, p),
        tilt_y: lerp(0, base.tilt_y, p),
        roll: lerp(0, base.roll, p),
        zoom: lerp(1, base.zoom, p),
        offset_x: lerp(0, base.offset_x, p),
        offset_y: lerp(0, base.offset_y, p),
      };
    }
    case 'float': {
      const angle = 2 * Math.PI * loopPhaseAt(plan, index);
      return {
        ...base,
        tilt_x: base.tilt_x + FLOAT_SWAY.tilt_x * Math.sin(angle),
        tilt_y: base.tilt_y + FLOAT_SWAY.tilt_y * Math.cos(angle),
        offset_y: base.offset_y + FLOAT_SWAY.bob * Math.sin(angle),
      };
    }
  }
}

/** The scroll position (CSS px) at frame `index`: 0 for anything but a scroll. */
export function scrollAt(plan: MotionPlan, endY: number, index: number): number {
  if (plan.type !== 'scroll') return 0;
  return progressAt(plan, index) * endY;
}
