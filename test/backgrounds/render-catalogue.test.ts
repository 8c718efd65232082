import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_CATALOGUE } from '../../packages/server/src/backgrounds/catalogue.ts';
import { renderBackground } from '../../packages/server/src/backgrounds/render-background.ts';
import { FULL_SIZE_SHARDS, fullSizeShard } from './full-size-renders.ts';
import {
  type Fingerprint,
  fingerprint,
  hamming,
  highFrequencyEnergy,
  nearDuplicate,
} from './perceptual-hash.ts';

const catalogue = BACKGROUND_CATALOGUE;
const thumbnails = new Map<string, Buffer>();

beforeAll(async () => {
  const started = performance.now();
  for (const asset of catalogue.assets) {
    const r = await renderBackground(asset, { width: 480, height: 300, format: 'webp', scale: 0.5 });
    thumbnails.set(asset.id, r.data);
  }
  console.log(`thumbnails: ${catalogue.assets.length} in ${Math.round(performance.now() - started)} ms`);
}, 120_000);

describe('rendering the catalogue', () => {
  it('renders every asset thumbnail at exactly 480x300', async () => {
    expect(thumbnails.size).toBe(catalogue.assets.length);
    for (const asset of catalogue.assets) {
      const meta = await sharp(thumbnails.get(asset.id)!).metadata();
      expect([asset.background, meta.width, meta.height, meta.format]).toEqual([
        asset.background,
        480,
        300,
        'webp',
      ]);
    }
  });

  // The 2560x1600 variant of every asset is rendered by render-full-size-<n>.test.ts, split so
  // vitest's workers share the minute of CPU it takes; this checks the split misses nothing.
  it('renders every asset at 2560x1600 across the full-size shards', () => {
    const shards = Array.from({ length: FULL_SIZE_SHARDS }, (_, i) => fullSizeShard(i));
    const covered = shards.flat().map((a) => a.id);
    expect(covered.toSorted()).toEqual(catalogue.assets.map((a) => a.id).toSorted());
    for (let n = 1; n <= FULL_SIZE_SHARDS; n++)
      expect(existsSync(fileURLToPath(new URL(`render-full-size-${n}.test.ts`, import.meta.url)))).toBe(true);
  });

  it('renders deterministically', async () => {
    const asset = catalogue.pack('topographic')!.assets[3]!;
    const a = await renderBackground(asset, { width: 640, height: 400, format: 'png' });
    const b = await renderBackground(asset, { width: 640, height: 400, format: 'png' });
    expect(a.data.equals(b.data)).toBe(true);
  });
});

describe('perceptual uniqueness', () => {
  it('flags a near-duplicate (sanity check of the detector)', async () => {
    for (const reference of [
      'linear-gradients/linear-gradients-03',
      'geometric/geometric-02',
      'waves/waves-05',
    ]) {
      const asset = catalogue.find(reference)!;
      const a = await fingerprint(thumbnails.get(asset.id)!);
      const shifted = await sharp(thumbnails.get(asset.id)!).modulate({ brightness: 1.03 }).png().toBuffer();
      expect({ reference, duplicate: nearDuplicate(a, await fingerprint(shifted)) }).toEqual({
        reference,
        duplicate: true,
      });
    }
  });

  it('has no two assets that are near-duplicates', async () => {
    const prints: [string, Fingerprint][] = [];
    for (const asset of catalogue.assets)
      prints.push([asset.background, await fingerprint(thumbnails.get(asset.id)!)]);
    const duplicates: string[] = [];
    for (let i = 0; i < prints.length; i++) {
      for (let j = i + 1; j < prints.length; j++) {
        const [na, fa] = prints[i]!;
        const [nb, fb] = prints[j]!;
        if (nearDuplicate(fa, fb)) duplicates.push(`${na} ~ ${nb} (dHash ${hamming(fa.dhash, fb.dhash)})`);
      }
    }
    expect(duplicates).toEqual([]);
  });
});

describe('crispness', () => {
  it('a native 2560x1600 render has clearly more fine detail than an upscaled thumbnail', async () => {
    for (const reference of [
      'topographic/topographic-02',
      'geometric/geometric-02',
      'css-patterns/css-patterns-10',
      'grainy-gradients/grainy-gradients-01',
    ]) {
      const asset = catalogue.find(reference)!;
      const native = (await renderBackground(asset, { width: 2560, height: 1600, format: 'png' })).data;
      const small = (await renderBackground(asset, { width: 480, height: 300, format: 'png' })).data;
      const upscaled = await sharp(small).resize(2560, 1600, { kernel: 'lanczos3' }).png().toBuffer();
      const crisp = await highFrequencyEnergy(native);
      const soft = await highFrequencyEnergy(upscaled);
      expect({ reference, ratio: crisp / soft > 1.8 }).toEqual({ reference, ratio: true });
    }
  }, 60_000);
});
