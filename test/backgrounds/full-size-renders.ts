import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  BACKGROUND_CATALOGUE,
  type BackgroundAsset,
} from '../../packages/server/src/backgrounds/catalogue.ts';
import { CONTENT_TYPES, renderBackground } from '../../packages/server/src/backgrounds/render-background.ts';

/**
 * Rendering every asset at 2560x1600 is about 50 s of CPU on a quiet two-core machine (twice
 * that when it is shared; bench/background-render-times.ts), so it is split over this many test
 * files (render-full-size-<n>.test.ts), which vitest's two workers run side by side.
 */
export const FULL_SIZE_SHARDS = 4;

/** The assets of shard `index` (0-based): every FULL_SIZE_SHARDS-th one, so each shard mixes every pack. */
export function fullSizeShard(index: number): BackgroundAsset[] {
  return BACKGROUND_CATALOGUE.assets.filter((_, i) => i % FULL_SIZE_SHARDS === index);
}

/**
 * One test per asset of the shard: the asset rendered natively at 2560x1600 in the format it is
 * served in (`asset.format`, as `image_url` delivers it) decodes to that size and format and is
 * not a blank canvas.
 */
export function describeFullSizeRenders(index: number): void {
  const assets = fullSizeShard(index);
  describe(`every asset at 2560x1600, shard ${index + 1} of ${FULL_SIZE_SHARDS}`, () => {
    for (const asset of assets) {
      // Seconds per asset at most when the machine is shared; the budget leaves room for that.
      it(`renders ${asset.background} (${asset.format})`, { timeout: 30_000 }, async () => {
        const r = await renderBackground(asset, { width: 2560, height: 1600, format: asset.format });
        expect(r.contentType).toBe(CONTENT_TYPES[asset.format]);
        const image = sharp(r.data);
        const meta = await image.metadata();
        expect([meta.width, meta.height, meta.format]).toEqual([2560, 1600, asset.format]);
        const stats = await image.stats();
        // Not a blank canvas: some variation in at least one channel.
        expect(Math.max(...stats.channels.map((c) => c.stdev))).toBeGreaterThan(1);
      });
    }
  });
}
