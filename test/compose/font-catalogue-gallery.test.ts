import { describe, expect, it } from 'vitest';
import { FONT_FAMILIES } from '../../packages/server/src/compose/text/font-families.ts';
import { half } from './gallery-scenes.ts';
import { compareWithReference } from './image-compare.ts';
import { compareModes } from './parity-compare.ts';
import { useParityKit } from './parity-kit.ts';

/**
 * The parity suite's threshold and mean (parity.test.ts says where they come from), with 1 % of
 * differing pixels instead of 0.6 %: three lines of text on a 784x514 canvas, where satori's and
 * Chromium's glyph edges differ on 0.3-0.8 % of the pixels depending on the family's outlines and
 * hinting. One family drawn in another's place is 1.8 % (mean delta 2.8), measured.
 */
const TOLERANCE = { pixelThreshold: 24, maxDiffering: 0.01, maxMeanDelta: 1.5 };

/** Families whose references are committed: one of each genre and a few popular designs. */
const WITH_REFERENCE = [
  'Poppins',
  'Playfair Display',
  'Space Grotesk',
  'IBM Plex Mono',
  'Bebas Neue',
  'Merriweather',
];

/**
 * A title, a subtitle and an overlay in `family`, with Latin, Cyrillic and Greek (drawn from
 * Inter by both modes where the family lacks them).
 */
const specimen = (family: string) =>
  half({
    title: `${family} — Ship faster`,
    title_font: family,
    subtitle: 'The quick brown fox · Съешь же ещё · Γειά σου 0123',
    subtitle_font: family,
    text_enabled: true,
    text_content: `${family} 48%`,
    text_font: family,
    text_size: 24,
    text_color: '#ffffff',
    text_x: 0.5,
    text_y: 0.6,
    background_preset: 'dusk',
  });

describe('every family of the font catalogue, in both compose modes (issue 34)', () => {
  const kit = useParityKit();

  it.each(FONT_FAMILIES.map((f) => f.family))('%s', async (family) => {
    const { raster, browser } = await kit.both(specimen(family));
    if (WITH_REFERENCE.includes(family)) {
      const name = `font-${family.toLowerCase().replace(/\s+/g, '-')}`;
      const result = await compareWithReference(name, raster);
      expect(result.ok, result.message).toBe(true);
    }
    const parity = await compareModes(`font-${family}`, raster, browser, TOLERANCE);
    expect(parity.ok, parity.message).toBe(true);
  });
});
