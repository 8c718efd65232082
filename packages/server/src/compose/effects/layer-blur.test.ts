import { describe, expect, it } from 'vitest';
import { halved, reduction } from './layer-blur.ts';

describe('blur level reductions', () => {
  it('keeps at least 3 reduced px of blur, up to a sixteenth', () => {
    expect([1, 5.9, 6, 8, 16, 24, 48, 200].map(reduction)).toEqual([1, 1, 2, 2, 4, 8, 16, 16]);
  });

  it('halves by alpha-weighted 2 x 2 means, repeating the last column of an odd width', () => {
    // 3 x 2: red opaque, transparent green, blue opaque / red opaque, red opaque, blue half.
    const px = [
      [255, 0, 0, 255],
      [0, 255, 0, 0],
      [0, 0, 255, 255],
      [255, 0, 0, 255],
      [255, 0, 0, 255],
      [0, 0, 255, 128],
    ];
    const small = halved({ data: Buffer.from(px.flat()), width: 3, height: 2 });
    expect([small.width, small.height]).toEqual([2, 1]);
    // The transparent green adds nothing to the colour, only to the coverage: 3 / 4 opaque red.
    expect([...small.data.subarray(0, 4)]).toEqual([255, 0, 0, 191]);
    // The last column repeats itself: blue at (255 + 128 + 255 + 128) / 4 coverage.
    expect([...small.data.subarray(4, 8)]).toEqual([0, 0, 255, 192]);
  });
});
