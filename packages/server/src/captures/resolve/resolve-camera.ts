import { CAMERA_PRESET_VALUES, type CameraValues, PERSPECTIVE_PRESET_VALUES } from '../../compose/index.ts';
import { withDefaults } from './defaults.ts';
import type { StyleRequest } from './style-request.ts';

const round = (n: number) => Math.round(n * 1000) / 1000 + 0;

/**
 * Expands `camera_preset` and `perspective` (scaled by `perspective_intensity`, default 1) into
 * explicit camera values. Precedence, lowest first: neutral, camera preset, perspective preset
 * (its tilt and roll), explicit fields.
 */
export function resolveCamera(r: Partial<StyleRequest>): CameraValues {
  const base: CameraValues = { ...CAMERA_PRESET_VALUES[r.camera_preset ?? 'flat'] };
  if (r.perspective && r.perspective !== 'none') {
    const k = withDefaults(r).perspective_intensity;
    const p = PERSPECTIVE_PRESET_VALUES[r.perspective];
    base.tilt_x = round(p.tilt_x * k);
    base.tilt_y = round(p.tilt_y * k);
    base.roll = round(p.roll * k);
  }
  const out = { ...base };
  for (const f of Object.keys(base) as (keyof CameraValues)[]) {
    const v = r[f];
    if (typeof v === 'number') out[f] = v;
  }
  return out;
}
