import { describe, expect, it } from 'vitest';
import { DEVICE_GALLERY } from './device-gallery-scenes.ts';
import { compareWithReference } from './image-compare.ts';
import { deviceInput, useRasterKit } from './raster-kit.ts';

describe('device frame gallery', () => {
  const kit = useRasterKit();

  it.each(Object.entries(DEVICE_GALLERY))(
    '%s matches its reference',
    async (name, { shot: kind, request }) => {
      const { input, info } = await deviceInput(kind, kit.shot);
      const result = await compareWithReference(name, await kit.render(request, input, info));
      expect(result.ok, result.message).toBe(true);
    },
  );
});
