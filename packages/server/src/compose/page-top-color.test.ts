import { describe, expect, it } from 'vitest';
import type { RawImage } from '../image/raw-image.ts';
import { pageTopColor } from './page-top-color.ts';

/** A `width` x `height` image whose row `y` has the colour `rowColor(y)`. */
function striped(width: number, height: number, rowColor: (y: number) => number[]): RawImage {
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(rowColor(y), (y * width + x) * 4);
  return { data, width, height, channels: 4 };
}

describe('pageTopColor', () => {
  it('averages only the top rows', () => {
    const img = striped(10, 20, (y) => (y < 4 ? [15, 23, 42, 255] : [255, 255, 255, 255]));
    expect(pageTopColor(img, 4)).toEqual({ r: 15, g: 23, b: 42, a: 1 });
    // Half dark, half white rows: the mean of both.
    expect(pageTopColor(img, 8)).toEqual({ r: 135, g: 139, b: 149, a: 1 });
  });

  it('weights pixels by alpha and ignores transparent ones', () => {
    const img = striped(4, 2, (y) => (y === 0 ? [200, 0, 0, 255] : [0, 0, 200, 0]));
    expect(pageTopColor(img, 2)).toEqual({ r: 200, g: 0, b: 0, a: 1 });
  });

  it('reads RGB captures without an alpha channel', () => {
    const rgb = {
      data: Buffer.from([10, 20, 30, 30, 40, 50, 0, 0, 0, 0, 0, 0]),
      width: 2,
      height: 2,
      channels: 3 as const,
    };
    expect(pageTopColor(rgb, 1)).toEqual({ r: 20, g: 30, b: 40, a: 1 });
  });

  it('is null for fully transparent rows and clamps the row count to the image', () => {
    expect(
      pageTopColor(
        striped(3, 3, () => [9, 9, 9, 0]),
        2,
      ),
    ).toBeNull();
    expect(
      pageTopColor(
        striped(3, 3, () => [9, 8, 7, 255]),
        50,
      ),
    ).toEqual({ r: 9, g: 8, b: 7, a: 1 });
  });
});
