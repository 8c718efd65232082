import { describe, expect, it } from 'vitest';
import type { SceneScreenshot } from '../scene-types.ts';
import { fittedScreenshot } from './screenshot-fit.ts';

/** A w x h RGB capture, dark from column `edge` on, light before it. */
function stepImage(w: number, h: number, edge: number) {
  const data = Buffer.alloc(w * h * 3, 200);
  for (let y = 0; y < h; y++) data.fill(20, (y * w + edge) * 3, (y + 1) * w * 3);
  return { data, width: w, height: h, channels: 3 as const };
}

const fit = (crop: SceneScreenshot['crop'], width: number, height: number): SceneScreenshot => ({
  rect: { x: 0, y: 0, width, height },
  radius: 0,
  crop,
});

describe('fittedScreenshot', () => {
  it('enlarges about pixel centres: an edge lands where the scale puts it, not half a pixel off', async () => {
    // Crop columns 10..30 (the edge at crop x 10) enlarged 2x: the edge belongs at x 20, so
    // pixels 19 and 20 straddle it symmetrically about the mid grey.
    const out = await fittedScreenshot(
      stepImage(40, 30, 20),
      fit({ x: 10, y: 5, width: 20, height: 20 }, 40, 40),
    );
    const at = (x: number) => out[(10 * 40 + x) * 4] as number;
    expect(at(17)).toBeGreaterThan(195);
    expect(at(22)).toBeLessThan(25);
    expect(Math.abs(at(19) - 110 - (110 - at(20)))).toBeLessThanOrEqual(2);
  });

  it('enlarges with the neighbours of the crop, opaque to the edge of the rect', async () => {
    const flat = { data: Buffer.alloc(50 * 40 * 3, 90), width: 50, height: 40, channels: 3 as const };
    const out = await fittedScreenshot(flat, fit({ x: 0, y: 3, width: 31, height: 31 }, 60, 60));
    expect(out.length).toBe(60 * 60 * 4);
    for (let i = 0; i < out.length; i += 4) expect([out[i], out[i + 3]]).toEqual([90, 255]);
  });

  it('still reduces with lanczos (centre-aligned already)', async () => {
    const out = await fittedScreenshot(
      stepImage(40, 30, 20),
      fit({ x: 0, y: 0, width: 40, height: 30 }, 20, 15),
    );
    const at = (x: number) => out[(7 * 20 + x) * 4] as number;
    expect(at(8)).toBeGreaterThan(190);
    expect(at(11)).toBeLessThan(30);
  });
});
