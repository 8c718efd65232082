import crypto from 'node:crypto';
import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Mat3, mul3, rotation, translate } from '../camera/camera-math.ts';
import { planDepthBlur } from './depth-blur-mask.ts';
import { planWarp, warpOnto } from './homography-warp.ts';
import { blurLayer } from './layer-blur.ts';
import { runHalve, runWarp, warpBandStats } from './warp-module.ts';

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
function tilted(cx: number, cy: number, tiltY = -35): Mat3 {
  const r = rotation({ tilt_x: 8, tilt_y: tiltY, roll: 0 });
  const d = 900;
  return mul3(
    translate(cx, cy),
    mul3([r[0], r[1], 0, r[3], r[4], 0, -r[6] / d, -r[7] / d, 1], translate(-cx, -cy)),
  );
}

/** A lens depth blur over `layer` under the strong tilt of `tilted`. */
function lensPlan(layer: { x: number; y: number; width: number; height: number }, amount = 80) {
  const plan = planDepthBlur(
    {
      depth_blur: amount,
      depth_blur_type: 'lens',
      depth_blur_direction: 'bottom',
      depth_blur_angle: 0,
      depth_blur_position: 0.5,
      depth_blur_band: 0.08,
      depth_blur_width: 0.45,
    },
    { x: layer.x, y: layer.y, width: layer.width, height: layer.height },
    rotation({ tilt_x: 8, tilt_y: -35, roll: 0 }),
  );
  if (!plan) throw new Error('no blur planned');
  return plan;
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
    const plan = lensPlan(layer);
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

  it('gives the same pixels in bands of rows on two threads as in one band', async () => {
    // Large and blurred enough for the blur to be evaluated on a coarse grid (checked below).
    const layer = picture(1440, 900);
    const blur = await blurLayer(layer, lensPlan(layer, 100));
    // 40 MB of noise, more than the warp places in the module's memory.
    const noise = { data: crypto.randomBytes(4000 * 2500 * 4), width: 4000, height: 2500 };
    for (const withBlur of [blur, null]) {
      const job = planWarp(canvas(1600, 1000), layer, tilted(800, 500, -15), withBlur);
      if (!job) throw new Error('nothing to warp');
      // The blurred job is the grid's case, the other one the sharp warp's.
      expect(job.grid !== null).toBe(withBlur !== null);
      const render = (bandRows?: { warp: number; grid: number }) => {
        // The module's memory filled with noise first, so that a band left out shows, not the
        // previous render's identical values.
        runHalve(noise);
        const target = canvas(1600, 1000);
        runWarp({ ...job, target, ...(bandRows ? { bandRows } : {}) });
        return target.data;
      };
      const whole = render({ warp: 100_000, grid: 100_000 });
      expect(render().equals(whole)).toBe(true);
      expect(render({ warp: 1, grid: 1 }).equals(whole)).toBe(true);
      expect(render({ warp: 7, grid: 3 }).equals(whole)).toBe(true);
    }
  });

  it('shares the bands with its worker thread, when the machine has a second core', async () => {
    const layer = picture(900, 700);
    const blur = await blurLayer(layer, lensPlan(layer));
    const alone = availableParallelism() < 2;
    // The worker starts with the module's first use and may be slow to be scheduled on a busy
    // machine: warp until it has taken a band, for up to 60 s (once on a one-core machine).
    const deadline = Date.now() + 60_000;
    let stats = warpBandStats();
    do {
      warpOnto(canvas(1000, 800), layer, tilted(500, 400), blur);
      await new Promise((resolve) => setTimeout(resolve, 20));
      stats = warpBandStats();
    } while (!alone && stats.onThisThread === stats.bands && Date.now() < deadline);
    expect(stats.bands).toBeGreaterThan(0);
    if (alone) expect(stats.onThisThread).toBe(stats.bands);
    else expect(stats.onThisThread).toBeLessThan(stats.bands);
  }, 90_000);

  it('is built from its current source (make install rebuilds it)', () => {
    const source = fileURLToPath(new URL('../../../assembly/warp.ts', import.meta.url));
    const built = fileURLToPath(new URL('../../../dist/warp.wasm', import.meta.url));
    // The build's flags are in the root package.json (`build:wasm`).
    const flags = fileURLToPath(new URL('../../../../../package.json', import.meta.url));
    expect(fs.statSync(built).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(source).mtimeMs);
    expect(fs.statSync(built).mtimeMs).toBeGreaterThanOrEqual(fs.statSync(flags).mtimeMs);
  });
});
