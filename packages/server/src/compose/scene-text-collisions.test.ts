import type { TitlePosition } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { resolveStyle, type StyleRequest } from '../captures/resolve/resolve-style.ts';
import { buildScene, rectsOverlap } from './scene.ts';
import type { Rect, Scene } from './scene-types.ts';

const SHOT = { width: 1280, height: 800 };

/** The text blocks of a scene: the title block (badge, title, subtitle together), watermark, free text. */
function blocks(scene: Scene): { name: string; box: Rect }[] {
  const union = (rects: Rect[]): Rect => {
    const x = Math.min(...rects.map((r) => r.x));
    const y = Math.min(...rects.map((r) => r.y));
    return {
      x,
      y,
      width: Math.max(...rects.map((r) => r.x + r.width)) - x,
      height: Math.max(...rects.map((r) => r.y + r.height)) - y,
    };
  };
  const title = scene.texts.filter((t) => ['badge', 'title', 'subtitle'].includes(t.role)).map((t) => t.box);
  const out: { name: string; box: Rect }[] = [];
  if (title.length > 0) out.push({ name: 'title block', box: union(title) });
  for (const t of scene.texts) {
    if (t.role === 'watermark') out.push({ name: 'watermark', box: t.box });
    if (t.role === 'text') out.push({ name: 'free text', box: t.box });
  }
  return out;
}

function expectApartAndInside(request: StyleRequest): void {
  const scene = buildScene(resolveStyle(request), SHOT);
  const found = blocks(scene);
  const label = JSON.stringify(request);
  for (const { name, box } of found) {
    expect(box.x, `${name} inside the canvas: ${label}`).toBeGreaterThanOrEqual(-0.5);
    expect(box.y, `${name} inside the canvas: ${label}`).toBeGreaterThanOrEqual(-0.5);
    expect(box.x + box.width, `${name} inside the canvas: ${label}`).toBeLessThanOrEqual(
      scene.canvas.width + 0.5,
    );
    expect(box.y + box.height, `${name} inside the canvas: ${label}`).toBeLessThanOrEqual(
      scene.canvas.height + 0.5,
    );
  }
  for (let i = 0; i < found.length; i++)
    for (let j = i + 1; j < found.length; j++) {
      const a = found[i]!;
      const b = found[j]!;
      expect(rectsOverlap(a.box, b.box), `${a.name} and ${b.name} overlap: ${label}`).toBe(false);
    }
}

describe('text blocks never collide', () => {
  it('moves a badge-only block clear of free text near the top (the reported case)', () => {
    const request: StyleRequest = { badge: 'New', text_content: 'Ship faster with Vitrine', text_y: 0.08 };
    const before = buildScene(resolveStyle({ badge: 'New' }), SHOT);
    const after = buildScene(resolveStyle(request), SHOT);
    expectApartAndInside(request);
    // Free text keeps its anchor; the badge moved down with its block, and the canvas made room.
    const text = after.texts.find((t) => t.role === 'text')!;
    expect(text.box.y + text.box.height / 2).toBeCloseTo(0.08 * after.canvas.height, 0);
    expect(after.canvas.height).toBeGreaterThan(before.canvas.height);
  });

  const positions: TitlePosition[] = ['above', 'below', 'top-left', 'bottom-left', 'overlay-bottom'];
  const blocksOf: StyleRequest[] = [
    { badge: 'New in 2.0' },
    { title: 'Ship dashboards your team loves', subtitle: 'Real-time analytics, zero setup.', badge: 'Beta' },
    {
      title: 'A much longer headline that wraps onto a second line at this size',
      subtitle: 'And a subtitle',
    },
  ];
  const freeTexts: StyleRequest[] = [0.02, 0.08, 0.2, 0.5, 0.8, 0.92, 0.98].flatMap((y) => [
    { text_content: 'Made with Vitrine', text_y: y, text_size: 40 },
    {
      text_content: 'Left note',
      text_x: 0.05,
      text_y: y,
      text_align: 'left',
      text_size: 28,
      text_max_width: 300,
    },
  ]);

  it.each(positions)(
    'keeps the title block (%s), the watermark and free text apart and on the canvas',
    (position) => {
      for (const block of blocksOf)
        for (const free of freeTexts)
          for (const extra of [{}, { watermark: 'vitrine.dev' }, { device: 'browser-macos' as const }])
            expectApartAndInside({ ...block, ...free, ...extra, title_position: position });
    },
  );

  it('keeps them apart on a fixed output size and an aspect ratio too', () => {
    for (const free of freeTexts) {
      expectApartAndInside({
        title: 'Fixed size',
        badge: 'New',
        ...free,
        output: { width: 1200, height: 800 },
      });
      expectApartAndInside({ title: 'Square', watermark: '@vitrine', ...free, aspect_ratio: '1:1' });
    }
  });

  it('keeps free text whose anchor would put it off the canvas inside it', () => {
    expectApartAndInside({ text_content: 'Corner', text_x: 0, text_y: 1, text_size: 64 });
    expectApartAndInside({
      text_content: 'Corner',
      text_x: 1,
      text_y: 0,
      text_size: 64,
      text_align: 'right',
    });
  });
});
