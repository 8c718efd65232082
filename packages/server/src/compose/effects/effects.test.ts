import { describe, expect, it } from 'vitest';
import { apply, corners, invert, mul3, rotation, translate } from '../camera/camera-math.ts';
import { renderShadowMask } from '../renderers/raster/shadow.ts';
import { warpMaskOnto } from './mask-warp.ts';
import { columnExtent, innerSpan, quadRows } from './quad-rows.ts';

const opaque = (w: number, h: number) => ({ data: Buffer.alloc(w * h * 4, 255), width: w, height: h });

/** A tilted plane's homography about (200, 150), strong enough to shrink one side to about 0.6. */
function tilt() {
  const r = rotation({ tilt_x: 10, tilt_y: -38, roll: 0 });
  const d = 900;
  return mul3(
    translate(200, 150),
    mul3([r[0], r[1], 0, r[3], r[4], 0, -r[6] / d, -r[7] / d, 1], translate(-200, -150)),
  );
}

describe('warped shadow masks', () => {
  it.each([
    [8, 2],
    [16, 4],
    [32, 8],
  ])(
    'blur %d on a grid %d px apart matches the per-pixel warp within 2 % of its opacity',
    async (sigma, step) => {
      const mask = await renderShadowMask(300, 200, 12, sigma);
      const placed = { ...mask, x: 50 - mask.margin, y: 50 - mask.margin };
      const colour = { r: 0, g: 0, b: 0, a: 1 };
      const fine = opaque(400, 300);
      const coarse = opaque(400, 300);
      warpMaskOnto(fine, placed, tilt(), colour, 1);
      warpMaskOnto(coarse, placed, tilt(), colour, step);
      let worst = 0;
      for (let i = 0; i < fine.data.length; i++)
        worst = Math.max(worst, Math.abs((fine.data[i] as number) - (coarse.data[i] as number)));
      expect(worst).toBeLessThanOrEqual(0.02 * 255);
      expect(fine.data[(150 * 400 + 200) * 4]).toBe(0);
      expect(fine.data[(5 * 400 + 5) * 4]).toBe(255);
    },
  );

  it('skip what lies wholly inside the hidden quad and nothing outside it', async () => {
    const mask = await renderShadowMask(300, 200, 12, 8);
    const placed = { ...mask, x: 50 - mask.margin, y: 50 - mask.margin };
    const colour = { r: 0, g: 0, b: 0, a: 0.5 };
    const hidden = corners({ x: 100, y: 100, width: 150, height: 80 }).map((p) => apply(tilt(), p.x, p.y));
    const all = opaque(400, 300);
    const some = opaque(400, 300);
    warpMaskOnto(all, placed, tilt(), colour, 2);
    warpMaskOnto(some, placed, tilt(), colour, 2, hidden);
    const centre = apply(tilt(), 175, 140);
    const c = (Math.round(centre.y) * 400 + Math.round(centre.x)) * 4;
    expect(all.data[c]).toBeLessThan(200);
    expect(some.data[c]).toBe(255);
    const outside = (60 * 400 + 60) * 4;
    expect(some.data[outside]).toBe(all.data[outside]);
  });
});

describe('quad rows', () => {
  it('spans the columns of its non-empty rows, or nothing', () => {
    const rows = (from: number[], to: number[]) => ({
      y0: 0,
      y1: from.length,
      from: Int32Array.from(from),
      to: Int32Array.from(to),
    });
    expect(columnExtent(rows([5, 3, 9], [8, 7, 9]))).toEqual({ x0: 3, x1: 8 });
    expect(columnExtent(rows([4, 6], [4, 2]))).toBeNull();
  });

  it('cover every pixel the projected rect touches, and inner spans stay inside it', () => {
    const h = tilt();
    const rect = { x: 100, y: 60, width: 200, height: 160 };
    const rows = quadRows(h, rect, { width: 400, height: 300 }, 0);
    if (!rows) throw new Error('no rows');
    const quad = corners(rect).map((p) => apply(h, p.x, p.y));
    for (const p of quad) {
      const y = Math.min(299, Math.floor(p.y));
      expect(Math.floor(p.x)).toBeGreaterThanOrEqual(rows.from[y - rows.y0] as number);
      expect(Math.floor(p.x)).toBeLessThan(rows.to[y - rows.y0] as number);
    }
    const [from, to] = innerSpan(quad, 150);
    expect(to).toBeGreaterThan(from);
    const inv = [from, to - 1].map((x) => apply(invert(h), x + 0.5, 150.5));
    for (const p of inv) {
      expect(p.x).toBeGreaterThan(rect.x);
      expect(p.x).toBeLessThan(rect.x + rect.width);
    }
  });
});
