import { describe, expect, it } from 'vitest';
import type { RawImage } from '../../../image/raw-image.ts';
import { drawScreenshot } from './screenshot.ts';

const rect = { x: 2, y: 2, width: 4, height: 4 };
const shot = { rect, radius: 0, crop: { x: 0, y: 0, width: 4, height: 4 } };

/** A white 8x8 canvas, and a 4x4 black screenshot with one half-transparent pixel (1, 1), off its corners. */
function setUp(): { canvas: RawImage; pixels: Buffer } {
  const canvas: RawImage = { data: Buffer.alloc(8 * 8 * 4, 255), width: 8, height: 8, channels: 4 };
  const pixels = Buffer.alloc(4 * 4 * 4);
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  pixels[(1 * 4 + 1) * 4 + 3] = 128;
  return { canvas, pixels };
}
const at = (img: RawImage, x: number, y: number) => [
  ...img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4),
];

describe('drawScreenshot', () => {
  it('scans the pixels when their opacity is not known, and blends what is transparent', () => {
    const { canvas, pixels } = setUp();
    drawScreenshot(canvas, pixels, shot);
    expect(at(canvas, 3, 3)[0]).toBeGreaterThan(100); // half black over white
    expect(at(canvas, 4, 3)).toEqual([0, 0, 0, 255]);
  });

  it('copies rows without a scan when the caller says the pixels are opaque', () => {
    const { canvas, pixels } = setUp();
    drawScreenshot(canvas, pixels, shot, true);
    // Taken at its word: copied as is (the caller vouches for opacity, as a video's frames do).
    expect(at(canvas, 3, 3)).toEqual([0, 0, 0, 128]);
    expect(at(canvas, 4, 3)).toEqual([0, 0, 0, 255]);
  });
});
