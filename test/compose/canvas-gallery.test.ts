import { CANVAS_PRESETS } from '@vitrine/contract';
import { describe, expect, it } from 'vitest';
import { CANVAS_GALLERY } from './canvas-gallery-scenes.ts';
import { compareWithReference } from './image-compare.ts';
import { deviceInput, useRasterKit } from './raster-kit.ts';

describe('canvas presets (issue 38): every preset at its size, the scene laid out for it', () => {
  const kit = useRasterKit();

  it.each(Object.entries(CANVAS_GALLERY))(
    'canvas-%s matches its reference',
    async (name, { shot, request }) => {
      const { input, info } = await deviceInput(shot, kit.shot);
      const image = await kit.render(request, input, info);
      expect([image.width, image.height]).toEqual([
        CANVAS_PRESETS[request.canvas].width,
        CANVAS_PRESETS[request.canvas].height,
      ]);
      const result = await compareWithReference(`canvas-${name}`, image);
      expect(result.ok, result.message).toBe(true);
    },
  );
});
