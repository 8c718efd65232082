import { describe, expect, it } from 'vitest';
import { CATALOGUE_GALLERY } from './device-catalogue-scenes.ts';
import { compareWithReference } from './image-compare.ts';
import { deviceInput, useRasterKit } from './raster-kit.ts';

describe('device catalogue gallery (issue 38): every new frame in every finish', () => {
  const kit = useRasterKit();

  it.each(Object.entries(CATALOGUE_GALLERY))(
    '%s matches its reference',
    async (name, { shot: kind, request }) => {
      const { input, info } = await deviceInput(kind, kit.shot);
      const result = await compareWithReference(name, await kit.render(request, input, info));
      expect(result.ok, result.message).toBe(true);
    },
  );
});
