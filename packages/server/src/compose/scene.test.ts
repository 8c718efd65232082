import { describe, expect, it } from 'vitest';
import { resolveStyle } from '../captures/resolve/resolve-style.ts';
import { AppError } from '../errors/app-error.ts';
import { buildScene } from './scene.ts';
import { SHADOW_PRESET_VALUES } from './shadow-presets.ts';

const shot = { width: 1440, height: 900 };
const scene = (req: Parameters<typeof resolveStyle>[0], s = shot) => buildScene(resolveStyle(req), s);

describe('resolveStyle', () => {
  it('applies the contract defaults', () => {
    const r = resolveStyle({});
    expect(r).toMatchObject({
      background_style: 'gradient',
      background_preset: 'aurora',
      padding: 64,
      corner_radius: 12,
      shadow: 'soft',
      output: { format: 'png', dpr: 1 },
    });
  });

  it.each(['soft', 'hard', 'glow', 'float'] as const)('expands shadow %s into shadow_* values', (shadow) => {
    const r = resolveStyle({ shadow });
    const key = SHADOW_PRESET_VALUES[shadow].key;
    expect(r.shadow_blur).toBe(key.blur);
    expect(r.shadow_offset_y).toBe(key.offset_y);
    expect(r.shadow_opacity).toBe(key.opacity);
  });

  it('lets explicit shadow_* fields override the preset', () => {
    const r = resolveStyle({ shadow: 'float', shadow_blur: 10, shadow_color: '#ff0000' });
    expect(r.shadow_blur).toBe(10);
    expect(r.shadow_color).toBe('#ff0000');
    expect(r.shadow_offset_y).toBe(SHADOW_PRESET_VALUES.float.key.offset_y);
  });

  it.each([
    ['subtle', 1],
    ['bold', 8],
    ['glass', 14],
  ] as const)('expands border %s; explicit width wins', (border, width) => {
    expect(resolveStyle({ border }).border_width).toBe(width);
    expect(resolveStyle({ border, border_width: 3 }).border_width).toBe(3);
  });

  it('rejects transparent with jpg with a clear 400', () => {
    const err = (() => {
      try {
        resolveStyle({ background_style: 'transparent', output: { format: 'jpg' } });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(400);
    expect((err as AppError).message).toMatch(/background_style.*jpg/);
  });

  it('rejects bad colours, gradients and fonts naming the field and valid values', () => {
    expect(() => resolveStyle({ background_color: 'blurple' })).toThrow(/background_color/);
    expect(() => resolveStyle({ background_gradient: 'linear-gradient(red)' })).toThrow(
      /background_gradient/,
    );
    expect(() => resolveStyle({ background_preset: 'custom' })).toThrow(/background_gradient/);
    expect(() => resolveStyle({ title: 'x', title_font: 'Comic Sans' })).toThrow(
      /Inter, Lora, DM Serif Display, JetBrains Mono/,
    );
  });

  it('accepts custom gradients of the three kinds', () => {
    for (const g of [
      'linear-gradient(to top right, #111 0%, rgba(0,0,255,0.5) 60%, hsl(300 80% 60%))',
      'radial-gradient(circle at 30% 20%, #fff, #000)',
      'conic-gradient(from 90deg at center, red, blue 50%, red)',
    ]) {
      expect(resolveStyle({ background_gradient: g }).background_preset).toBe('custom');
    }
  });
});

describe('buildScene', () => {
  it('frames a 1440x900 shot with padding 64 on the default look', () => {
    const s = scene({});
    expect(s.canvas).toMatchObject({ width: 1568, height: 1028 });
    expect(s.screenshot.rect).toEqual({ x: 64, y: 64, width: 1440, height: 900 });
    expect(s.frame.radius).toBe(12);
    expect(s.shadows.length).toBeGreaterThan(0);
  });

  it('gives the plain screenshot for background none + padding 0', () => {
    const s = scene({ background_style: 'none', padding: 0 });
    expect(s.canvas).toMatchObject({ width: 1440, height: 900 });
    expect(s.screenshot.radius).toBe(0);
    expect(s.shadows).toEqual([]);
    expect(s.background.kind).toBe('transparent');
  });

  it.each(['16:9', '4:3', '1:1', '3:2', '9:16', '21:9'] as const)(
    'aspect_ratio %s gives an exact canvas ratio',
    (ratio) => {
      const s = scene({ aspect_ratio: ratio });
      const [a, b] = ratio.split(':').map(Number) as [number, number];
      expect(s.canvas.width * b).toBe(s.canvas.height * a);
      expect(s.canvas.width).toBeGreaterThanOrEqual(1568);
      expect(s.canvas.height).toBeGreaterThanOrEqual(1028);
    },
  );

  it('scales everything by output dpr', () => {
    const one = scene({ title: 'Hello', border: 'bold' });
    const two = scene({ title: 'Hello', border: 'bold', output: { dpr: 2 } });
    expect(two.canvas.width).toBe(one.canvas.width * 2);
    expect(two.canvas.height).toBe(one.canvas.height * 2);
    expect(two.screenshot.rect.x).toBe(one.screenshot.rect.x * 2);
    expect(two.frame.radius).toBe(one.frame.radius * 2);
    expect(two.shadows[1]?.sigma).toBe((one.shadows[1]?.sigma ?? 0) * 2);
    expect(two.texts[0]?.size).toBe((one.texts[0]?.size ?? 0) * 2);
  });

  it('fits the screenshot into a fixed output size', () => {
    const s = scene({ output: { width: 1200, height: 630 } });
    expect(s.canvas).toMatchObject({ width: 1200, height: 630 });
    expect(s.screenshot.rect.height).toBeLessThanOrEqual(630 - 128);
    expect(s.screenshot.rect.y).toBeGreaterThanOrEqual(64);
  });

  it('crops to frame_ratio keeping the top of the page', () => {
    const s = scene({ frame_ratio: '1:1' });
    expect(s.screenshot.crop).toEqual({ x: 270, y: 0, width: 900, height: 900 });
    expect(s.screenshot.rect.width).toBe(s.screenshot.rect.height);
  });

  it('places title above the frame and below it', () => {
    const above = scene({ title: 'Launch day' });
    const below = scene({ title: 'Launch day', title_position: 'below' });
    const tA = above.texts.find((t) => t.role === 'title');
    const tB = below.texts.find((t) => t.role === 'title');
    expect((tA?.box.y ?? 0) + (tA?.box.height ?? 0)).toBeLessThan(above.frame.rect.y);
    expect(tB?.box.y).toBeGreaterThan(below.frame.rect.y + below.frame.rect.height);
  });

  it('puts overlay-bottom text inside the screenshot over a scrim', () => {
    const s = scene({ title: 'Inside', title_position: 'overlay-bottom' });
    const t = s.texts.find((x) => x.role === 'title');
    expect(s.canvas.height).toBe(1028);
    expect(s.scrim).not.toBeNull();
    expect(t?.box.y).toBeGreaterThan(s.screenshot.rect.y);
    expect(t?.color).toMatchObject({ r: 255, g: 255, b: 255 });
  });

  it('autofits free text into its box', () => {
    const s = scene({
      text_content: 'A much longer headline that cannot fit at the requested size',
      text_size: 120,
      text_max_width: 600,
      text_box_h: 200,
      text_fit_min: 16,
      text_autofit: true,
    });
    const t = s.texts.find((x) => x.role === 'text');
    expect(t?.size).toBeLessThan(120);
    expect((t?.lines.length ?? 0) * (t?.lineHeight ?? 0)).toBeLessThanOrEqual(200);
  });

  it('grows the frame by outside borders and inset, not by the subtle rim', () => {
    expect(scene({ border: 'subtle' }).frame.rect.width).toBe(1440);
    expect(scene({ border: 'bold' }).frame.rect.width).toBe(1456);
    expect(scene({ inset: 20 }).frame.rect.width).toBe(1480);
  });
});
