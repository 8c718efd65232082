import crypto from 'node:crypto';
import { IMAGE_PREVIEW_LIMITS as PREVIEW_LIMITS } from '@vitrine/contract';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { previewImage } from './preview-image.ts';

/** A tall PNG of noise: the worst case for the byte budget (noise does not compress). */
async function noisyPng(width: number, height: number, channels: 3 | 4): Promise<Buffer> {
  const data = crypto.randomBytes(width * height * channels);
  return sharp(data, { raw: { width, height, channels } }).png({ compressionLevel: 1 }).toBuffer();
}

describe('previewImage', () => {
  it('fits a tall full-page render into 1568 px and 1 MB, keeping the aspect ratio', async () => {
    const input = await noisyPng(1568 * 2, 1568 * 6, 3);
    const preview = await previewImage(input);
    const meta = await sharp(preview).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(PREVIEW_LIMITS.maxSide);
    expect(preview.length).toBeLessThanOrEqual(PREVIEW_LIMITS.maxBytes);
    expect(Math.abs((meta.height ?? 0) / (meta.width ?? 1) - 3)).toBeLessThan(0.02);
  }, 120_000);

  it('never enlarges a small image and keeps its transparency', async () => {
    const input = await sharp({
      create: { width: 300, height: 200, channels: 4, background: { r: 10, g: 20, b: 30, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const meta = await sharp(await previewImage(input)).metadata();
    expect([meta.width, meta.height]).toEqual([300, 200]);
    expect(meta.hasAlpha).toBe(true);
  });

  it('halves the size when no quality fits the byte budget', async () => {
    const input = await noisyPng(800, 800, 3);
    const preview = await previewImage(input, { maxSide: 800, maxBytes: 40_000 });
    const meta = await sharp(preview).metadata();
    expect(preview.length).toBeLessThanOrEqual(40_000);
    expect(meta.width).toBeLessThan(800);
  });
});
