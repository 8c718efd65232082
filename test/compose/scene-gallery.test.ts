import { describe, expect, it } from 'vitest';
import { compareWithReference } from './image-compare.ts';
import {
  SCENE_CAMERA_GALLERY,
  SCENE_CANVAS_GALLERY,
  SCENE_GALLERY,
  SCENE_WATERMARK_GALLERY,
} from './scene-gallery-scenes.ts';
import { useSceneKit } from './scene-kit.ts';

describe('scenes (issue 38): every arrangement with two and three shots, and on canvas presets', () => {
  const kit = useSceneKit({ browser: false });

  it.each(Object.entries(SCENE_GALLERY))(
    '%s matches its reference',
    async (name, c) => {
      const image = await kit.compose(c, 'satori');
      const result = await compareWithReference(name, image);
      expect(result.ok, result.message).toBe(true);
    },
    120_000,
  );

  it.each(Object.entries({ ...SCENE_CAMERA_GALLERY, ...SCENE_WATERMARK_GALLERY }))(
    '%s: one camera, one watermark for the scene: matches its reference',
    async (name, c) => {
      const image = await kit.compose(c, 'satori');
      const result = await compareWithReference(name, image);
      expect(result.ok, result.message).toBe(true);
    },
    120_000,
  );

  it.each(Object.entries(SCENE_CANVAS_GALLERY))(
    '%s fills its preset exactly and matches its reference',
    async (name, c) => {
      const image = await kit.compose(c, 'satori');
      const preset = c.request.canvas === 'og' ? [1200, 630] : [1080, 1920];
      expect([image.width, image.height]).toEqual(preset);
      const result = await compareWithReference(name, image);
      expect(result.ok, result.message).toBe(true);
    },
    120_000,
  );
});
