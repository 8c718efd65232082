import sharp from 'sharp';
import type { SceneScreenshot } from '../scene-types.ts';
import type { RawInput } from './raster.ts';

/**
 * The capture cropped (frame_ratio) and resized to its rect, as RGBA. Both renderers use this
 * one function, so the screenshot's pixels are the same in both compose modes.
 */
export async function fittedScreenshot(input: RawInput, s: SceneScreenshot): Promise<Buffer> {
  const { crop, rect } = s;
  const whole = crop.x === 0 && crop.y === 0 && crop.width === input.width && crop.height === input.height;
  if (whole && rect.width === input.width && rect.height === input.height && input.channels === 4)
    return input.data;
  let p = sharp(input.data, { raw: { width: input.width, height: input.height, channels: input.channels } });
  if (!whole) p = p.extract({ left: crop.x, top: crop.y, width: crop.width, height: crop.height });
  if (rect.width !== crop.width || rect.height !== crop.height)
    p = p.resize(rect.width, rect.height, { fit: 'fill', kernel: 'lanczos3' });
  return p.ensureAlpha().raw().toBuffer();
}
