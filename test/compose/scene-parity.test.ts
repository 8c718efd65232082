import { describe, expect, it } from 'vitest';
import { compareModes } from './parity-compare.ts';
import {
  SCENE_CAMERA_GALLERY,
  SCENE_CANVAS_GALLERY,
  SCENE_GALLERY,
  SCENE_WATERMARK_GALLERY,
} from './scene-gallery-scenes.ts';
import { useSceneKit } from './scene-kit.ts';

/** The parity suite's tolerance (parity.test.ts says where each part of it comes from). */
const TOLERANCE = { pixelThreshold: 24, maxDiffering: 0.006, maxMeanDelta: 1.5 };

describe('browser compose mode matches the raster mode on scenes (issue 38)', () => {
  const kit = useSceneKit();

  it.each(
    Object.entries({
      ...SCENE_GALLERY,
      ...SCENE_CANVAS_GALLERY,
      ...SCENE_CAMERA_GALLERY,
      ...SCENE_WATERMARK_GALLERY,
    }),
  )(
    '%s',
    async (name, c) => {
      const raster = await kit.compose(c, 'satori');
      const browser = await kit.compose(c, 'browser');
      expect([browser.width, browser.height]).toEqual([raster.width, raster.height]);
      const result = await compareModes(name, raster, browser, TOLERANCE);
      console.log(result.message);
      expect(result.ok, result.message).toBe(true);
    },
    240_000,
  );
});
