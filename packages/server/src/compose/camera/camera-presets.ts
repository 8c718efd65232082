import type { CameraPresetName, Perspective } from '@vitrine/contract';

/** Explicit camera values: what every perspective and camera preset expands into. */
export interface CameraValues {
  /** Degrees about the horizontal axis; positive leans the top edge away (the frame faces up). */
  tilt_x: number;
  /** Degrees about the vertical axis; positive turns the right edge away (the frame faces right). */
  tilt_y: number;
  /** Degrees in the image plane, clockwise. */
  roll: number;
  /** Camera zoom about the frame's slot on the canvas (does not grow the canvas; above 1 may crop). */
  zoom: number;
  /** Shift of the frame as a fraction of the canvas width / height (does not grow the canvas). */
  offset_x: number;
  offset_y: number;
  /** Scale of the framed screenshot in the layout (the canvas fits it, like device_scale). */
  frame_scale: number;
}

export type PerspectivePreset = Exclude<Perspective, 'none'>;
export type CameraPreset = CameraPresetName;

/** Perspective presets: angles at `perspective_intensity: 1` (the intensity scales all three). */
export const PERSPECTIVE_PRESET_VALUES: Record<
  PerspectivePreset,
  Pick<CameraValues, 'tilt_x' | 'tilt_y' | 'roll'>
> = {
  'tilt-left': { tilt_x: 6, tilt_y: -20, roll: 0 },
  'tilt-right': { tilt_x: 6, tilt_y: 20, roll: 0 },
  'tilt-up': { tilt_x: 24, tilt_y: 0, roll: 0 },
  'tilt-down': { tilt_x: -24, tilt_y: 0, roll: 0 },
  'tilt-left-strong': { tilt_x: 10, tilt_y: -38, roll: 0 },
  'tilt-right-strong': { tilt_x: 10, tilt_y: 38, roll: 0 },
  'iso-left': { tilt_x: 48, tilt_y: 0, roll: 32 },
  'iso-right': { tilt_x: 48, tilt_y: 0, roll: -32 },
};

/** Camera presets: a full set of camera values each. */
export const CAMERA_PRESET_VALUES: Record<CameraPreset, CameraValues> = {
  hero: { tilt_x: 14, tilt_y: -12, roll: 0, zoom: 1, offset_x: 0, offset_y: 0, frame_scale: 1 },
  dashboard: { tilt_x: 30, tilt_y: 0, roll: 0, zoom: 1, offset_x: 0, offset_y: 0, frame_scale: 1 },
  flat: { tilt_x: 0, tilt_y: 0, roll: 0, zoom: 1, offset_x: 0, offset_y: 0, frame_scale: 1 },
  cinematic: { tilt_x: 8, tilt_y: -30, roll: -3, zoom: 1, offset_x: 0, offset_y: 0, frame_scale: 1 },
  detail: { tilt_x: 10, tilt_y: -14, roll: 0, zoom: 1.8, offset_x: 0.36, offset_y: 0.32, frame_scale: 1 },
};

/** Whether the values move the frame off the flat, centred, unscaled layout. */
export function isFlatCamera(c: CameraValues): boolean {
  return (
    c.tilt_x === 0 && c.tilt_y === 0 && c.roll === 0 && c.zoom === 1 && c.offset_x === 0 && c.offset_y === 0
  );
}
