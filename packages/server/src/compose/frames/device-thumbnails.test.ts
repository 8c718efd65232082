import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { deviceThumbnailLook } from '../../captures/resolve/resolve-capture.ts';
import { createComposeCache } from '../renderers/raster/render-raster.ts';
import { loadFontCatalogue } from '../text/font-catalogue.ts';
import { createDeviceThumbnails, standInPage, THUMBNAIL_BOX } from './device-thumbnails.ts';

describe('device thumbnails', () => {
  it('draws each named finish once, 320x320 with a transparent background, and no other name', async () => {
    let loads = 0;
    const fonts = await loadFontCatalogue();
    const thumbnails = createDeviceThumbnails({
      lookOf: (device, finish) => deviceThumbnailLook(device, finish, THUMBNAIL_BOX),
      fonts: async () => {
        loads++;
        return fonts;
      },
      cache: createComposeCache(),
    });
    const [a, b] = await Promise.all([
      thumbnails.png('watch', 'starlight'),
      thumbnails.png('watch', 'starlight'),
    ]);
    expect(a).toBe(b);
    expect(loads).toBe(1);
    const meta = await sharp(a as Buffer).metadata();
    expect([meta.width, meta.height, meta.hasAlpha]).toEqual([320, 320, true]);
    const other = await thumbnails.png('pixel-9', 'peony');
    expect(other?.equals(a as Buffer)).toBe(false);
    expect(loads).toBe(2);
    expect(await thumbnails.png('pixel-9', 'titanium-gold')).toBeNull();
    expect(await thumbnails.png('pixel-9', '#ff0000')).toBeNull();
  });

  it('makes its own stand-in page: a white header over a light page', () => {
    const page = standInPage(100, 200);
    expect([page.width, page.height, page.channels]).toEqual([100, 200, 3]);
    const at = (x: number, y: number) => [...page.data.subarray((y * 100 + x) * 3, (y * 100 + x) * 3 + 3)];
    expect(at(99, 2)).toEqual([255, 255, 255]);
    expect(at(0, 199)).toEqual([248, 250, 252]);
  });
});
