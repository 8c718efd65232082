import { describe, expect, it } from 'vitest';
import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { GALLERY, half } from './gallery-scenes.ts';
import { compareWithReference } from './image-compare.ts';
import { useRasterKit } from './raster-kit.ts';

describe('raster gallery', () => {
  const kit = useRasterKit();

  it.each(Object.entries(GALLERY))('%s matches its reference', async (name, request) => {
    const result = await compareWithReference(name, await kit.render(request));
    expect(result.ok, result.message).toBe(true);
  });

  it('renders dpr 2 at exactly twice the size of dpr 1, looking the same', async () => {
    const request = half({ title: 'Crisp at 2x', shadow: 'soft' });
    const one = await kit.render(request);
    const two = await kit.render({ ...request, output: { dpr: 2 } });
    expect([two.width, two.height]).toEqual([one.width * 2, one.height * 2]);
    const result = await compareWithReference('dpr-2', two);
    expect(result.ok, result.message).toBe(true);
  });

  it('keeps transparent corners transparent and the screenshot centre opaque', async () => {
    const image = await kit.render(GALLERY.transparent as StyleRequest);
    expect(image.data[3]).toBe(0);
    const c = ((image.height >> 1) * image.width + (image.width >> 1)) * 4;
    expect(image.data[c + 3]).toBe(255);
  });
});
