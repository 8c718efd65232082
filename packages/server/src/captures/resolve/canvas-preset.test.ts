import { CANVAS_NAMES, CANVAS_PRESETS } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { buildScene } from '../../compose/scene.ts';
import { AppError } from '../../errors/app-error.ts';
import { canvasTextScale, outputWithCanvas } from './canvas-preset.ts';
import { resolveStyle } from './resolve-style.ts';

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a 400');
}

describe('canvas presets', () => {
  it('sets output.width and output.height and keeps the other output fields', () => {
    expect(outputWithCanvas({ canvas: 'og', output: { format: 'jpg' } })).toEqual({
      format: 'jpg',
      width: 1200,
      height: 630,
    });
    expect(outputWithCanvas({ canvas: 'app-store' })).toMatchObject({ width: 1320, height: 2868 });
    expect(outputWithCanvas({ output: { width: 800 } })).toEqual({ width: 800 });
    expect(outputWithCanvas({ canvas: 'youtube', output: { dpr: 1 } })).toMatchObject({ width: 1280 });
  });

  it('refuses canvas with an explicit output size or dpr, naming both fields', () => {
    const both = refusal(() => outputWithCanvas({ canvas: 'og', output: { width: 800, height: 400 } }));
    expect(both.code).toBe('invalid_params');
    expect(both.message).toContain('canvas');
    expect(both.message).toContain('output.width and output.height');
    expect((both.details as { issues: { path: string }[] }).issues.map((i) => i.path)).toEqual([
      'canvas',
      'output.width',
      'output.height',
    ]);
    const dpr = refusal(() => resolveStyle({ canvas: 'twitter', output: { dpr: 2 } }));
    expect(dpr.message).toContain('output.dpr');
  });

  it('grows the default text and padding with the canvas short side, never shrinks them', () => {
    expect(canvasTextScale(undefined)).toBe(1);
    expect(canvasTextScale('og')).toBe(1);
    expect(canvasTextScale('linkedin')).toBe(1);
    expect(canvasTextScale('app-store')).toBeCloseTo(1320 / 630);
    const s = resolveStyle({ canvas: 'instagram-story', title: 'Hi' });
    expect(s.title_size).toBe(Math.round(56 * (1080 / 630)));
    expect(resolveStyle({ canvas: 'instagram-story', title_size: 40 }).title_size).toBe(40);
  });

  it.each(CANVAS_NAMES)('%s: a scene of that exact size, the device not stretched', (canvas) => {
    for (const device of ['macbook-pro-16', 'iphone-16-pro'] as const) {
      const scene = buildScene(resolveStyle({ canvas, device, title: 'Ship faster today' }), {
        width: 1440,
        height: 900,
        dpr: 1,
      });
      expect([scene.canvas.width, scene.canvas.height]).toEqual([
        CANVAS_PRESETS[canvas].width,
        CANVAS_PRESETS[canvas].height,
      ]);
      const d = scene.device;
      expect(d).not.toBeNull();
      if (!d) continue;
      // The device keeps its own aspect: width / height as at device_scale 1.
      const natural = buildScene(resolveStyle({ device }), { width: 1440, height: 900, dpr: 1 }).device;
      if (!natural) throw new Error('no device');
      expect(d.rect.width / d.rect.height).toBeCloseTo(natural.rect.width / natural.rect.height, 1);
      expect(d.rect.x).toBeGreaterThanOrEqual(0);
      expect(d.rect.x + d.rect.width).toBeLessThanOrEqual(scene.canvas.width);
    }
  });
});
