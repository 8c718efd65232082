import { describe, expect, it } from 'vitest';
import { CAMERA_GALLERY } from './camera-gallery-scenes.ts';
import { compareModes } from './parity-compare.ts';
import { useParityKit } from './parity-kit.ts';

/**
 * The camera gallery in both compose modes. Beyond the flat gallery's differences (glyph
 * rasterisers, blur at reduced resolution), Chromium resamples a 3D-transformed layer with
 * its own filtering (the raster warp supersamples where it minifies), so text on the
 * foreshortened side differs on more pixels; the mean delta still catches a wrong transform,
 * a missing shadow or a misplaced blur at once.
 */
const TOLERANCE = { pixelThreshold: 24, maxDiffering: 0.008, maxMeanDelta: 2 };

describe('camera and depth blur: browser mode matches the raster mode', () => {
  const kit = useParityKit();
  const both = async (name: string, request: (typeof CAMERA_GALLERY)[string]) => {
    const { raster, browser } = await kit.both(request);
    return compareModes(name, raster, browser, TOLERANCE);
  };
  it.each(Object.entries(CAMERA_GALLERY))('%s', async (name, request) => {
    const result = await both(name, request);
    console.log(result.message);
    expect(result.ok, result.message).toBe(true);
  });
});
