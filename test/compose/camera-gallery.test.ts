import { describe, expect, it } from 'vitest';
import type { RawPixels } from '../../packages/server/src/image/raw-image.ts';
import { CAMERA_GALLERY } from './camera-gallery-scenes.ts';
import { compareWithReference } from './image-compare.ts';
import { useRasterKit } from './raster-kit.ts';

describe('raster camera and depth-blur gallery', () => {
  const kit = useRasterKit();

  it.each(Object.entries(CAMERA_GALLERY))('%s matches its reference', async (name, request) => {
    const result = await compareWithReference(name, await kit.render(request));
    expect(result.ok, result.message).toBe(true);
  });

  it('a blurred, tilted white frame on white stays white (premultiplied: no dark halo)', async () => {
    const white: RawPixels = { data: Buffer.alloc(360 * 225 * 4, 255), width: 360, height: 225, channels: 4 };
    const request = {
      background_style: 'solid' as const,
      background_color: '#FFFFFF',
      shadow: 'none' as const,
      perspective: 'tilt-right' as const,
      depth_blur: 100,
      depth_blur_type: 'radial' as const,
    };
    const image = await kit.render(request, white);
    let darkest = 255;
    for (let i = 0; i < image.data.length; i += 4) darkest = Math.min(darkest, image.data[i] as number);
    expect(darkest).toBeGreaterThanOrEqual(253);
  });
});
