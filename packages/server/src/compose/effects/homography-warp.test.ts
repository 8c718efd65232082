import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Mat3, mul3, rotation, translate } from '../camera/camera-math.ts';
import { planDepthBlur } from './depth-blur-mask.ts';
import { warpOnto } from './homography-warp.ts';
import { blurLayer } from './layer-blur.ts';

const scale = (sx: number, sy: number): Mat3 => [sx, 0, 0, 0, sy, 0, 0, 0, 1];

/** An opaque layer of 1 px vertical stripes, black and white. */
function stripes(w: number, h: number) {
  const data = Buffer.alloc(w * h * 4, 255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x += 2) data.fill(0, (y * w + x) * 4, (y * w + x) * 4 + 3);
  return { data, width: w, height: h, x: 0, y: 0 };
}

/** A photograph-like layer: smooth gradients and a few hard edges, opaque. */
function picture(w: number, h: number) {
  const data = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = (y * w + x) * 4;
      data[i] = (x * 255) / w;
      data[i + 1] = (y * 255) / h;
      data[i + 2] = (x + y) % 40 < 20 ? 40 : 220;
      data[i + 3] = 255;
    }
  return { data, width: w, height: h, x: 20, y: 20 };
}

const canvas = (w: number, h: number) => ({ data: Buffer.alloc(w * h * 4, 255), width: w, height: h });

/** A strong tilt about the canvas centre (cx, cy). */
function tilted(cx: number, cy: number): Mat3 {
  const r = rotation({ tilt_x: 8, tilt_y: -35, roll: 0 });
  const d = 900;
  return mul3(
    translate(cx, cy),
    mul3([r[0], r[1], 0, r[3], r[4], 0, -r[6] / d, -r[7] / d, 1], translate(-cx, -cy)),
  );
}

describe('homography warp (WebAssembly)', () => {
  it('a layer shrunk to a third averages the three columns under each pixel', () => {
    const target = canvas(40, 20);
    warpOnto(target, stripes(120, 20), scale(1 / 3, 1));
    // A single bilinear tap at each pixel's centre would read one stripe (0 or 255).
    for (let x = 2; x < 38; x++) {
      const red = target.data[(10 * 40 + x) * 4] as number;
      expect([85, 170]).toContain(red);
    }
  });

  it('gives the same pixels whatever warp ran before it (its memory is reused)', async () => {
    const layer = picture(160, 100);
    const plan = planDepthBlur(
      {
        depth_blur: 80,
        depth_blur_type: 'lens',
        depth_blur_direction: 'bottom',
        depth_blur_angle: 0,
        depth_blur_position: 0.5,
        depth_blur_band: 0.08,
        depth_blur_width: 0.45,
      },
      { x: 20, y: 20, width: 160, height: 100 },
      rotation({ tilt_x: 8, tilt_y: -35, roll: 0 }),
    );
    if (!plan) throw new Error('no blur planned');
    const blur = await blurLayer(layer, plan);
    const first = canvas(200, 140);
    warpOnto(first, layer, tilted(100, 70), blur);
    // A larger warp with other pixels fills the module's memory with something else.
    const big = picture(900, 700);
    warpOnto(canvas(1000, 800), big, tilted(500, 400), await blurLayer(big, plan));
    const again = canvas(200, 140);
    warpOnto(again, layer, tilted(100, 70), blur);
    expect(again.data.equals(first.data)).toBe(true);
    // And the blur did something: the frame is not the sharp layer everywhere.
    const sharp = canvas(200, 140);
    warpOnto(sharp, layer, tilted(100, 70));
    expect(sharp.data.equals(first.data)).toBe(false);
  });

  it('is built from its current source (make install rebuilds it)', () => {
    const source = fileURLToPath(new URL('../../../assembly/warp.ts', import.meta.url));
    const built = fileURLToPath(new URL('../../../dist/warp.wasm', import.meta.url));
    expect(fs.statSync(built).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(source).mtimeMs);
  });
});
