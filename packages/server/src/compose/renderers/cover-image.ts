import sharp from 'sharp';
import type { RawImage, RawPixels } from '../../image/raw-image.ts';

/** The background image covering the canvas (centre crop), for both renderers. */
export async function coverImage(src: RawPixels, width: number, height: number): Promise<RawImage> {
  const data = await sharp(src.data, {
    raw: { width: src.width, height: src.height, channels: src.channels },
  })
    .resize(width, height, { fit: 'cover', kernel: 'lanczos3' })
    .ensureAlpha()
    .raw()
    .toBuffer();
  return { data, width, height, channels: 4 };
}
