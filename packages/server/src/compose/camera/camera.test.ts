import { describe, expect, it } from 'vitest';
import { resolveCamera } from '../../captures/resolve/resolve-camera.ts';
import { resolveStyle } from '../../captures/resolve/resolve-style.ts';
import { evalStops, levelStops, maskParam, planDepthBlur } from '../effects/depth-blur-mask.ts';
import { warpOnto } from '../effects/homography-warp.ts';
import { buildScene } from '../scene.ts';
import { apply, corners, invert, mul3, quadToQuad, rotation, translate } from './camera-math.ts';
import { CAMERA_PRESET_VALUES } from './camera-presets.ts';
import { projectedBox } from './scene-camera.ts';

const shot = { width: 1440, height: 900 };
const blurDefaults = {
  depth_blur: 50,
  depth_blur_direction: 'top' as const,
  depth_blur_angle: 0,
  depth_blur_position: 0.5,
  depth_blur_band: 0.2,
  depth_blur_width: 0.3,
};

describe('camera presets', () => {
  it('expands a perspective preset scaled by its intensity; explicit fields win', () => {
    expect(resolveCamera({ perspective: 'tilt-left' })).toMatchObject({
      tilt_x: 6,
      tilt_y: -20,
      roll: 0,
      zoom: 1,
    });
    expect(resolveCamera({ perspective: 'tilt-left', perspective_intensity: 0.5 })).toMatchObject({
      tilt_x: 3,
      tilt_y: -10,
    });
    expect(resolveCamera({ perspective: 'tilt-left', tilt_y: 5 }).tilt_y).toBe(5);
  });

  it('layers camera preset < perspective < explicit', () => {
    const c = resolveCamera({ camera_preset: 'detail', perspective: 'tilt-up', zoom: 2 });
    expect(c).toMatchObject({
      tilt_x: 24,
      tilt_y: 0,
      zoom: 2,
      offset_x: CAMERA_PRESET_VALUES.detail.offset_x,
    });
  });

  it('shows the explicit values in the resolved style', () => {
    const s = resolveStyle({ camera_preset: 'hero', depth_blur: 40 });
    expect(s).toMatchObject({ ...CAMERA_PRESET_VALUES.hero, camera_preset: 'hero', depth_blur_type: 'lens' });
    expect(resolveStyle({}).depth_blur_type).toBe('tilt');
  });
});

describe('camera math', () => {
  it('solves a homography through four points and inverts it', () => {
    const from = corners({ x: 10, y: 20, width: 300, height: 200 });
    const to = [
      { x: 5, y: 7 },
      { x: 320, y: 40 },
      { x: 300, y: 260 },
      { x: 30, y: 210 },
    ];
    const h = quadToQuad(from, to);
    from.forEach((p, i) => {
      const q = apply(h, p.x, p.y);
      expect(q.x).toBeCloseTo(to[i]?.x as number, 6);
      expect(q.y).toBeCloseTo(to[i]?.y as number, 6);
    });
    const id = mul3(h, invert(h));
    expect(apply(id, 42, 17).x).toBeCloseTo(42, 6);
  });

  it('turning the right edge away (tilt_y > 0) makes it shorter than the left edge', () => {
    const r = rotation({ tilt_x: 0, tilt_y: 30, roll: 0 });
    expect(r[6]).toBeLessThan(0); // depth falls towards +x: the right side recedes
    const box = projectedBox({ ...CAMERA_PRESET_VALUES.flat, tilt_y: 30 }, 800, 500);
    expect(box.width).toBeLessThan(800);
    expect(box.height).toBeGreaterThan(500); // the near (left) edge grows
    expect(box.dx).toBeLessThan(0);
  });
});

describe('scene with a camera', () => {
  it.each(['tilt-left-strong', 'iso-right', 'tilt-down'] as const)(
    '%s: the canvas holds the projected frame',
    (p) => {
      const scene = buildScene(resolveStyle({ perspective: p }), shot);
      const quad = scene.layer?.camera?.quad ?? [];
      expect(quad).toHaveLength(4);
      for (const q of quad) {
        expect(q.x).toBeGreaterThanOrEqual(63);
        expect(q.y).toBeGreaterThanOrEqual(63);
        expect(q.x).toBeLessThanOrEqual(scene.canvas.width - 63);
        expect(q.y).toBeLessThanOrEqual(scene.canvas.height - 63);
      }
      expect(scene.shadows.every((s) => s.matrix)).toBe(true);
    },
  );

  it('a fixed output size scales the projected frame to fit', () => {
    const scene = buildScene(
      resolveStyle({ perspective: 'iso-left', output: { width: 1200, height: 800 } }),
      shot,
    );
    expect([scene.canvas.width, scene.canvas.height]).toEqual([1200, 800]);
    for (const q of scene.layer?.camera?.quad ?? []) {
      expect(q.x).toBeGreaterThan(60);
      expect(q.x).toBeLessThan(1140);
    }
  });

  it('no camera and no blur: no layer, the flat scene as before', () => {
    expect(buildScene(resolveStyle({ camera_preset: 'flat' }), shot).layer).toBeNull();
  });
});

describe('depth blur masks', () => {
  const frame = { x: 100, y: 100, width: 800, height: 500 };
  it('dir: sharp away from the direction, full blur at its edge', () => {
    const p = planDepthBlur({ ...blurDefaults, depth_blur_type: 'dir' }, frame, null);
    if (!p) throw new Error('no plan');
    expect(evalStops(p.stops, maskParam(p.geometry, 500, 100))).toBeCloseTo(1, 3);
    expect(evalStops(p.stops, maskParam(p.geometry, 500, 600))).toBe(0);
  });

  it('radial: sharp centre; lens without tilt falls back to a tilt band', () => {
    const r = planDepthBlur({ ...blurDefaults, depth_blur_type: 'radial' }, frame, null);
    expect(r && evalStops(r.stops, maskParam(r.geometry, 500, 350))).toBe(0);
    const l = planDepthBlur(
      { ...blurDefaults, depth_blur_type: 'lens' },
      frame,
      rotation(CAMERA_PRESET_VALUES.flat),
    );
    expect(l?.geometry).toMatchObject({ kind: 'linear', dir: { x: 0, y: 1 } });
  });

  it('level profiles stack to the blend of adjacent levels', () => {
    const stops = [
      { t: 0, m: 0 },
      { t: 1, m: 1 },
    ];
    const lv = [1, 2, 3].map((i) => levelStops(stops, 3, i));
    // At m = 0.5: level 1 fully on, level 2 half, level 3 off.
    expect(lv.map((s) => evalStops(s, 0.5))).toEqual([1, expect.closeTo(0.5, 6), 0]);
  });

  it('strength 0 plans nothing', () => {
    expect(
      planDepthBlur({ ...blurDefaults, depth_blur: 0, depth_blur_type: 'tilt' }, frame, null),
    ).toBeNull();
  });
});

describe('homography warp', () => {
  it('an integer translation copies pixels exactly', () => {
    const src = Buffer.alloc(4 * 4 * 4, 0);
    for (let i = 0; i < src.length; i += 4) src.set([200, 100, 50, 255], i);
    const target = { data: Buffer.alloc(10 * 10 * 4), width: 10, height: 10 };
    warpOnto(target, { data: src, width: 4, height: 4, x: 0, y: 0 }, translate(3, 2));
    const at = (x: number, y: number) => [...target.data.subarray((y * 10 + x) * 4, (y * 10 + x) * 4 + 4)];
    expect(at(3, 2)).toEqual([200, 100, 50, 255]);
    expect(at(6, 5)).toEqual([200, 100, 50, 255]);
    expect(at(7, 5)[3]).toBe(0);
  });

  it('anti-aliases a rotated edge without darkening its colour', () => {
    const src = Buffer.alloc(20 * 20 * 4, 0);
    for (let y = 2; y < 18; y++) for (let x = 2; x < 18; x++) src.set([255, 255, 255, 255], (y * 20 + x) * 4);
    const target = { data: Buffer.alloc(40 * 40 * 4), width: 40, height: 40 };
    const r = rotation({ tilt_x: 0, tilt_y: 0, roll: 20 });
    const h = mul3(translate(20, 20), mul3([r[0], r[1], 0, r[3], r[4], 0, 0, 0, 1], translate(-10, -10)));
    warpOnto(target, { data: src, width: 20, height: 20, x: 0, y: 0 }, h);
    let partial = 0;
    for (let i = 0; i < target.data.length; i += 4) {
      const a = target.data[i + 3] as number;
      if (a > 10 && a < 245) {
        partial++;
        expect(target.data[i]).toBeGreaterThan(250);
      }
    }
    expect(partial).toBeGreaterThan(20);
  });
});
