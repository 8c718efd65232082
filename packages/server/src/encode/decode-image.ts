import sharp from 'sharp';
import type { RawImage } from '../image/raw-image.ts';

/** Decodes encoded bytes (the PNG Chromium produced) into straight RGBA for the compose step. */
export async function decodeToRaw(encoded: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(encoded).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}
