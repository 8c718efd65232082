import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_CATALOGUE } from '../../packages/server/src/backgrounds/catalogue.ts';
import { renderBackground } from '../../packages/server/src/backgrounds/render-background.ts';
import { createSeededRandom } from '../../packages/server/src/backgrounds/seeded-random.ts';
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
    for (const asset of catalogue.assets.slice(0, 20)) {
      const meta = await sharp(thumbnails.get(asset.id)!).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([480, 300, 'webp']);
    }
  });

  // Every asset at 2560x1600 takes about a minute on two cores (measured), too slow for the
  // suite: one asset of every generator and subtype, plus a seeded random sample of 6.
  it('renders a 2560x1600 variant of every generator and subtype plus a sample', async () => {
    const picks = new Map<string, (typeof catalogue.assets)[number]>();
    for (const a of catalogue.assets)
      if (!picks.has(`${a.type}/${a.subtype}`)) picks.set(`${a.type}/${a.subtype}`, a);
    const rnd = createSeededRandom('render-sample');
    for (let i = 0; i < 6; i++) {
      const a = rnd.pick(catalogue.assets);
      picks.set(a.id, a);
    }
    const started = performance.now();
    for (const asset of picks.values()) {
      const r = await renderBackground(asset, { width: 2560, height: 1600, format: asset.format });
      const meta = await sharp(r.data).metadata();
      expect([asset.background, meta.width, meta.height]).toEqual([asset.background, 2560, 1600]);
      const stats = await sharp(r.data).stats();
      // Not a blank canvas: some variation in at least one channel.
      expect(Math.max(...stats.channels.map((c) => c.stdev))).toBeGreaterThan(1);
    }
    console.log(`2560x1600: ${picks.size} in ${Math.round(performance.now() - started)} ms`);
  }, 240_000);

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
