import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { addFilmGrain, GRAIN_TILE, grainTile } from './film-grain.ts';
import type { GrainSpec } from './generators/generator-types.ts';

/** An opaque RGBA canvas with every channel sweeping its range, so the whole blend table is used. */
function backdrop(width: number, height: number): Uint8Array {
  const px = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      px[i] = Math.round((255 * x) / (width - 1));
      px[i + 1] = Math.round((255 * y) / (height - 1));
      px[i + 2] = (x * 7 + y * 3) & 255;
      px[i + 3] = 255;
    }
  }
  return px;
}

/** The reference: the grain as an RGBA tile composited by sharp (libvips), as renders used to be made. */
async function sharpGrain(rgba: Uint8Array, width: number, height: number, grain: GrainSpec) {
  const size = Math.min(GRAIN_TILE, width, height);
  const values = grainTile(grain, size);
  const tile = Buffer.alloc(size * size * 4);
  const alpha = Math.round(Math.min(1, grain.amount * 5) * 255);
  for (const [i, v] of values.entries()) tile.set([v, v, v, alpha], i * 4);
  return sharp(rgba, { raw: { width, height, channels: 4 } })
    .composite([
      { input: tile, raw: { width: size, height: size, channels: 4 }, tile: true, blend: 'soft-light' },
    ])
    .removeAlpha()
    .raw()
    .toBuffer();
}

describe('film grain', () => {
  for (const [width, height, grain] of [
    [700, 500, { amount: 0.03, seed: 7 }],
    [480, 300, { amount: 0.12, seed: 99 }],
    [2560, 1600, { amount: 0.1, seed: 2024 }],
  ] as const) {
    it(`matches libvips' tiled soft-light composite at ${width}x${height}, amount ${grain.amount}`, async () => {
      const rgba = backdrop(width, height);
      const ours = addFilmGrain(rgba, width, height, grain);
      const reference = await sharpGrain(rgba, width, height, grain);
      expect(ours.length).toBe(reference.length);
      let differing = 0;
      let worst = 0;
      let changed = 0;
      for (let i = 0, p = 0; i < ours.length; i++) {
        const d = Math.abs((ours[i] as number) - (reference[i] as number));
        if (d > 0) differing++;
        worst = Math.max(worst, d);
        if (ours[i] !== rgba[p]) changed++;
        p += i % 3 === 2 ? 2 : 1;
      }
      // Float rounding in libvips flips a handful of values by one level; nothing more.
      expect(worst).toBeLessThanOrEqual(1);
      expect(differing / ours.length).toBeLessThan(0.001);
      // The grain is really there: most channels moved off the backdrop.
      expect(changed / ours.length).toBeGreaterThan(0.5);
    });
  }

  it('is deterministic for a seed and differs between seeds', () => {
    const rgba = backdrop(64, 48);
    const a = addFilmGrain(rgba, 64, 48, { amount: 0.1, seed: 1 });
    expect(addFilmGrain(rgba, 64, 48, { amount: 0.1, seed: 1 }).equals(a)).toBe(true);
    expect(addFilmGrain(rgba, 64, 48, { amount: 0.1, seed: 2 }).equals(a)).toBe(false);
  });
});
