import { IMAGE_PREVIEW_LIMITS } from '@vitrine/contract';
import sharp from 'sharp';

/** Lossy qualities tried in turn before the size is halved. */
const QUALITIES = [82, 65, 45] as const;

/**
 * A WebP preview of a stored render within the contract's `IMAGE_PREVIEW_LIMITS` (1568 px, 1 MB): resized to fit the longest side
 * (never enlarged), transparency kept, quality lowered step by step and the size halved until
 * the bytes fit. The input is our own render, so sharp's input pixel limit is lifted (renders can
 * be larger than its default).
 */
export async function previewImage(
  encoded: Uint8Array,
  limits: { maxSide: number; maxBytes: number } = IMAGE_PREVIEW_LIMITS,
): Promise<Buffer> {
  for (let side = limits.maxSide; side >= 16; side = Math.floor(side / 2)) {
    for (const quality of QUALITIES) {
      const preview = await sharp(encoded, { limitInputPixels: false })
        .resize({ width: side, height: side, fit: 'inside', withoutEnlargement: true })
        .webp({ quality, alphaQuality: quality, effort: 2 })
        .toBuffer();
      if (preview.length <= limits.maxBytes) return preview;
    }
  }
  throw new Error('No preview fits the byte limit');
}
