import { describe, expect, it } from 'vitest';
import type { StyleRequest } from '../../packages/server/src/captures/resolve/resolve-style.ts';
import { isOpaque } from '../../packages/server/src/image/raw-image.ts';
import { randomLook, seededRandom } from '../support/random-look.ts';
import { useRasterKit } from './raster-kit.ts';

/**
 * The raster renderer marks a canvas opaque when its background is (the encoder then drops the
 * alpha channel without checking every pixel): the mark must never be wrong, whatever is drawn
 * over that background.
 */
describe('raster canvas opacity mark', () => {
  const kit = useRasterKit();

  it('is set only on canvases that are opaque, over many random looks', async () => {
    let marked = 0;
    let unmarked = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const random = randomLook(seededRandom(seed));
      // PNG: a transparent background is refused with JPEG.
      const output = { ...(random.output as object), format: 'png' };
      const look = { ...random, output, compose_mode: 'satori' } as StyleRequest;
      const canvas = await kit.render(look);
      if (canvas.opaque) {
        marked++;
        expect(isOpaque(canvas.data), `seed ${seed}: marked opaque but is not`).toBe(true);
      } else unmarked++;
    }
    // Both kinds occur: random looks have gradient, solid, transparent and image backgrounds.
    expect(marked).toBeGreaterThan(5);
    expect(unmarked).toBeGreaterThan(0);
  }, 120_000);

  it('marks the default look, and neither a transparent nor a translucent background', async () => {
    expect((await kit.render({})).opaque).toBe(true);
    const looks = [
      { background_style: 'transparent' },
      { background_style: 'solid', background_color: 'rgba(15, 23, 42, 0.5)' },
      {
        background_style: 'gradient',
        background_gradient: 'linear-gradient(90deg, #fff, rgba(0, 0, 0, 0.2))',
      },
    ];
    for (const look of looks) {
      const canvas = await kit.render(look as StyleRequest);
      expect(canvas.opaque, JSON.stringify(look)).toBeUndefined();
      expect(isOpaque(canvas.data), JSON.stringify(look)).toBe(false);
    }
  });
});
