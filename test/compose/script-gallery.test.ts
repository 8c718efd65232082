import { describe, expect, it } from 'vitest';
import { resolveStyle } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { buildScene } from '../../packages/server/src/compose/scene.ts';
import { compareWithReference } from './image-compare.ts';
import { compareModes } from './parity-compare.ts';
import { useParityKit } from './parity-kit.ts';
import { SCRIPT_GALLERY } from './script-gallery-scenes.ts';

/**
 * The parity suite's tolerance (parity.test.ts says where it comes from), with room for the
 * glyph edges of text-heavy scenes: here both modes draw these texts with Chromium, so what
 * differs is the rest of the scene and satori's Latin and CJK text.
 */
const TOLERANCE = { pixelThreshold: 24, maxDiffering: 0.006, maxMeanDelta: 1.5 };

describe('text in every script, in both compose modes (issue 34)', () => {
  const kit = useParityKit();

  it.each(Object.entries(SCRIPT_GALLERY))(
    '%s: references, parity, no missing glyphs',
    async (name, request) => {
      const scene = buildScene(resolveStyle(request), kit.shot, { measurer: kit.fonts.measurer });
      for (const text of scene.texts) {
        const faces = await kit.fonts.facesFor(text.lines.join(''), text.font);
        expect(faces.uncovered, `${text.role}: ${text.lines.join(' / ')}`).toEqual([]);
      }
      const { raster, browser } = await kit.both(request);
      const satori = await compareWithReference(`script-${name}`, raster);
      expect(satori.ok, satori.message).toBe(true);
      const chromium = await compareWithReference(`script-${name}-browser`, browser);
      expect(chromium.ok, chromium.message).toBe(true);
      const parity = await compareModes(`script-${name}`, raster, browser, TOLERANCE);
      expect(parity.ok, parity.message).toBe(true);
    },
  );

  it('wraps and auto-fits text in these scripts within its box', () => {
    const request = SCRIPT_GALLERY.thai;
    const scene = buildScene(resolveStyle({ ...request, text_max_width: 240 }), kit.shot, {
      measurer: kit.fonts.measurer,
    });
    const overlay = scene.texts.find((t) => t.role === 'text');
    expect(overlay?.lines.length).toBeGreaterThan(1);
    // Thai breaks between words, never between a consonant and its vowel or tone mark.
    for (const line of overlay?.lines ?? []) expect(line).not.toMatch(/^[\u0e31\u0e34-\u0e3a\u0e47-\u0e4e]/u);
    expect(overlay?.size).toBeLessThan(30);
  });
});
