import { describe, expect, it } from 'vitest';
import { CAMERA_GALLERY } from './camera-gallery-scenes.ts';
import { compareModes } from './parity-compare.ts';
import { useParityKit } from './parity-kit.ts';

/**
 * The camera gallery in both compose modes. Browser mode draws the frame layer flat, the
 * backdrop and the flat texts in Chromium and warps and blurs the layer with the raster
 * renderer's code, so what differs is what differs in the flat gallery (glyph rasterisers,
 * shadow blurs at reduced resolution): the same tolerance as there (0.6 % of pixels beyond 24
 * levels, mean delta under 1.5). Chromium blurring and transforming the layer itself needed
 * 0.8 % and 2.
 */
const TOLERANCE = { pixelThreshold: 24, maxDiffering: 0.006, maxMeanDelta: 1.5 };

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
