import { SCENE_LAYOUTS } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { resolveStyle } from '../captures/resolve/resolve-style.ts';
import { ComposeError } from './compose-error.ts';
import { rectsOverlap } from './scene.ts';
import { buildSceneGroup, type GroupShotFrame, sceneGroupGeometry } from './scene-group.ts';

const phone: GroupShotFrame = {
  device: 'iphone-16-pro',
  device_color: null,
  device_scale: 1,
  frame_ratio: 'auto',
};
const laptop: GroupShotFrame = { ...phone, device: 'macbook-pro-16' };
const window: GroupShotFrame = { ...phone, device: 'browser-macos' };
const phonePage = { width: 1206, height: 2436, dpr: 3 };
const laptopPage = { width: 3456, height: 2160, dpr: 2 };
const windowPage = { width: 1440, height: 900, dpr: 1 };

const arrangement = (layout: (typeof SCENE_LAYOUTS)[number]) => ({
  layout,
  spacing: 48,
  alignment: 'center' as const,
});
const shots = [
  { frame: laptop, info: laptopPage },
  { frame: phone, info: phonePage },
  { frame: window, info: windowPage },
];

describe('the scene model of several shots', () => {
  it.each(SCENE_LAYOUTS)(
    '%s: every shot on the canvas, clear of the title, in one common scale',
    (layout) => {
      const group = buildSceneGroup(
        resolveStyle({ title: 'Every screen', canvas: 'og' }),
        arrangement(layout),
        shots,
      );
      const { width, height } = group.backdrop.canvas;
      expect([width, height]).toEqual([1200, 630]);
      expect(group.shots.map((s) => s.index).sort()).toEqual([0, 1, 2]);
      const title = group.backdrop.texts.find((t) => t.role === 'title');
      expect(title).toBeDefined();
      for (const shot of group.shots) {
        const frame = {
          ...shot.scene.frame.rect,
          x: shot.scene.frame.rect.x + shot.x,
          y: shot.scene.frame.rect.y + shot.y,
        };
        // Frames inside the canvas (a fan's turned corners within a pixel or two).
        expect(frame.x).toBeGreaterThanOrEqual(-2);
        expect(frame.y).toBeGreaterThanOrEqual(-2);
        expect(frame.x + frame.width).toBeLessThanOrEqual(width + 2);
        expect(frame.y + frame.height).toBeLessThanOrEqual(height + 2);
        if (layout !== 'fan') expect(rectsOverlap(frame, title!.box)).toBe(false);
        // One background for the scene: every shot is drawn on a transparent canvas.
        expect(shot.scene.background).toEqual({ kind: 'transparent' });
        expect(shot.scene.texts.filter((t) => t.role !== 'device')).toEqual([]);
      }
      // Natural relative sizes: the laptop is wider than the phone.
      const byIndex = (i: number) => group.shots.find((s) => s.index === i)!.scene.frame.rect;
      expect(byIndex(0).width).toBeGreaterThan(2 * byIndex(1).width);
    },
  );

  it('overlap puts the phone in front of the laptop, over its lower right part', () => {
    const group = buildSceneGroup(resolveStyle({}), arrangement('overlap'), shots.slice(0, 2));
    expect(group.shots.map((s) => s.index)).toEqual([0, 1]);
    const [back, front] = group.shots.map((s) => ({
      ...s.scene.frame.rect,
      x: s.scene.frame.rect.x + s.x,
      y: s.scene.frame.rect.y + s.y,
    }));
    expect(rectsOverlap(back!, front!)).toBe(true);
    expect(front!.x + front!.width / 2).toBeGreaterThan(back!.x + back!.width / 2);
    expect(front!.y + front!.height).toBeGreaterThan(back!.y + back!.height);
  });

  it('fan turns the shots apart, the middle one drawn last', () => {
    const three = [0, 1, 2].map(() => ({ frame: phone, info: phonePage }));
    const group = buildSceneGroup(resolveStyle({}), arrangement('fan'), three);
    expect(group.shots.map((s) => s.index)).toEqual([0, 2, 1]);
    const rolls = group.shots.map((s) => s.scene.layer?.camera?.rotation ?? null);
    expect(rolls.filter((r) => r !== null)).toHaveLength(2);
    expect(group.shots.find((s) => s.index === 1)!.scene.layer).toBeNull();
  });

  it('a canvas with no room left is a no_room ComposeError', () => {
    expect(() =>
      buildSceneGroup(
        resolveStyle({ padding: 512, output: { width: 900, height: 600 } }),
        arrangement('side-by-side'),
        shots,
      ),
    ).toThrow(ComposeError);
  });

  it('without a fixed canvas the scene takes its natural size, bounded', () => {
    const group = buildSceneGroup(resolveStyle({}), arrangement('side-by-side'), shots);
    expect(group.backdrop.canvas.width).toBeLessThanOrEqual(2400 + 2 * 64);
    expect(group.backdrop.canvas.height).toBeGreaterThan(200);
  });
});

describe('one camera for the whole scene (issue 38)', () => {
  it.each([
    ['tilt-left', 'side-by-side'],
    ['iso-right', 'fan'],
    ['tilt-down', 'overlap'],
    ['tilt-right-strong', 'grid'],
  ] as const)(
    '%s on %s: one camera turns the group; every projected frame stays on the canvas, clear of the title',
    (perspective, layout) => {
      const group = buildSceneGroup(
        resolveStyle({ title: 'Every screen', canvas: 'og', perspective }),
        arrangement(layout),
        shots,
      );
      const camera = group.layer?.camera;
      expect(camera).toBeDefined();
      const { width, height } = group.backdrop.canvas;
      // The shots themselves are drawn flat (a fan only turns them in their plane).
      for (const shot of group.shots) {
        const own = shot.scene.layer?.camera?.values;
        if (own) expect([own.tilt_x, own.tilt_y]).toEqual([0, 0]);
      }
      const geometry = sceneGroupGeometry(group) as { shots: { frame_quad: { x: number; y: number }[] }[] };
      const title = group.backdrop.texts.find((t) => t.role === 'title')?.box;
      if (!title) throw new Error('no title');
      for (const shot of geometry.shots) {
        expect(shot.frame_quad).toHaveLength(4);
        for (const p of shot.frame_quad) {
          expect(p.x).toBeGreaterThanOrEqual(0);
          expect(p.y).toBeGreaterThanOrEqual(0);
          expect(p.x).toBeLessThanOrEqual(width);
          expect(p.y).toBeLessThanOrEqual(height);
        }
        const ys = shot.frame_quad.map((p) => p.y);
        expect(Math.min(...ys)).toBeGreaterThanOrEqual(title.y + title.height);
      }
      // The group layer holds every shot's canvas (shadows included).
      const rect = group.layer?.rect;
      for (const shot of group.shots) {
        expect(shot.x).toBeGreaterThanOrEqual(rect?.x ?? Number.NaN);
        expect(shot.x + shot.scene.canvas.width).toBeLessThanOrEqual((rect?.x ?? 0) + (rect?.width ?? 0));
      }
    },
  );

  it('every camera preset on every layout lays out, with or without a fixed canvas', () => {
    for (const camera_preset of ['hero', 'dashboard', 'cinematic', 'detail'] as const)
      for (const layout of SCENE_LAYOUTS)
        for (const canvas of [undefined, 'instagram-story'] as const) {
          const group = buildSceneGroup(
            resolveStyle({ title: 'T', camera_preset, ...(canvas ? { canvas } : {}) }),
            arrangement(layout),
            shots,
          );
          expect(group.layer?.camera?.values.tilt_x, `${camera_preset} ${layout}`).toBeGreaterThan(0);
          expect(group.backdrop.canvas.width).toBeGreaterThan(100);
        }
  });

  it('depth blur alone blurs across the group, not each shot; no camera or blur: no group layer', () => {
    const blurred = buildSceneGroup(resolveStyle({ depth_blur: 40 }), arrangement('side-by-side'), shots);
    expect(blurred.layer?.camera).toBeNull();
    expect(blurred.layer?.depthBlur).not.toBeNull();
    expect(blurred.shots.every((shot) => shot.scene.layer === null)).toBe(true);
    expect(buildSceneGroup(resolveStyle({}), arrangement('side-by-side'), shots).layer).toBeNull();
  });
});

describe('a watermark on a scene (issue 38)', () => {
  it('is drawn once: in the band below the shots, clear of the title; with no band, over the front shot', () => {
    const banded = buildSceneGroup(
      resolveStyle({ title: 'Every screen', watermark: 'vitrine.dev', padding: 64 }),
      arrangement('side-by-side'),
      shots,
    );
    const marks = banded.backdrop.texts.filter((t) => t.role === 'watermark');
    expect(marks).toHaveLength(1);
    expect(banded.overlay).toBeNull();
    expect(banded.shots.every((shot) => shot.scene.texts.every((t) => t.role !== 'watermark'))).toBe(true);
    const title = banded.backdrop.texts.find((t) => t.role === 'title')?.box;
    const mark = marks[0]?.box;
    if (!title || !mark) throw new Error('missing text');
    expect(rectsOverlap(mark, title)).toBe(false);

    const tight = buildSceneGroup(
      resolveStyle({ watermark: 'vitrine.dev', padding: 8 }),
      arrangement('cascade'),
      shots.slice(0, 2),
    );
    expect(tight.backdrop.texts.some((t) => t.role === 'watermark')).toBe(false);
    const over = tight.overlay?.texts ?? [];
    expect(over.map((t) => t.role)).toEqual(['watermark']);
    const front = tight.shots.at(-1);
    if (!front || !over[0]) throw new Error('no front shot');
    const screen = front.scene.screenshot.rect;
    const box = over[0].box;
    expect(box.x).toBeGreaterThanOrEqual(screen.x + front.x);
    expect(box.y + box.height).toBeLessThanOrEqual(screen.y + front.y + screen.height);
  });
});
