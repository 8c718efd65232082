import { renderAsync } from '@resvg/resvg-js';
import sharp from 'sharp';
import { planBackground } from './background-config.ts';
import type { BackgroundAsset } from './catalogue.ts';
import type { GrainSpec } from './generators/generator-types.ts';
import { createSeededRandom } from './seeded-random.ts';

export const BACKGROUND_FORMATS = ['png', 'webp', 'jpg'] as const;
export type BackgroundFormat = (typeof BACKGROUND_FORMATS)[number];

export const CONTENT_TYPES: Record<BackgroundFormat, string> = {
  png: 'image/png',
  webp: 'image/webp',
  jpg: 'image/jpeg',
};

/**
 * Bumped whenever a generator or the encoder changes its output, so cached renders and ETags
 * of older versions are never served for the new ones.
 */
export const RENDERER_VERSION = 1;

export interface RenderOptions {
  width: number;
  height: number;
  format: BackgroundFormat;
  /** Device pixels per CSS pixel for css-backgrounds (default 1). */
  scale?: number;
  /** Lossy quality for webp/jpg (default 90). */
  quality?: number;
}

export interface RenderedBackground {
  data: Buffer;
  contentType: string;
  width: number;
  height: number;
}

const GRAIN_TILE = 384;

/** A tile of monochrome film grain, as RGBA: grey around 50% with the strength in alpha. */
function grainTile(grain: GrainSpec, size: number): Buffer {
  const rnd = createSeededRandom(grain.seed ^ 0x9e3779b9);
  const tile = Buffer.alloc(size * size * 4);
  const alpha = Math.round(Math.min(1, grain.amount * 5) * 255);
  for (let i = 0; i < size * size; i++) {
    // Sum of three uniforms: close enough to Gaussian grain.
    const g = 128 + (rnd.next() + rnd.next() + rnd.next() - 1.5) * 150;
    const v = Math.max(0, Math.min(255, Math.round(g)));
    tile[i * 4] = v;
    tile[i * 4 + 1] = v;
    tile[i * 4 + 2] = v;
    tile[i * 4 + 3] = alpha;
  }
  return tile;
}

/**
 * Renders an asset at exactly `width` x `height`: the generator draws the vector scene at that
 * size (never a small bitmap scaled up), grain is added one grain per pixel, then encoded.
 */
export async function renderBackground(
  asset: BackgroundAsset,
  options: RenderOptions,
): Promise<RenderedBackground> {
  const { width, height, format } = options;
  const plan = planBackground(asset.config, { width, height, scale: options.scale ?? 1 });
  const rendered = await renderAsync(plan.svg, {
    fitTo: { mode: 'original' },
    font: { loadSystemFonts: false },
    background: '#000000',
  });
  let raw = sharp(rendered.pixels, { raw: { width, height, channels: 4 } });
  if (plan.grain && plan.grain.amount > 0) {
    const size = Math.min(GRAIN_TILE, width, height);
    const tile = grainTile(plan.grain, size);
    raw = sharp(
      await raw
        .composite([
          { input: tile, raw: { width: size, height: size, channels: 4 }, tile: true, blend: 'soft-light' },
        ])
        .raw()
        .toBuffer(),
      { raw: { width, height, channels: 4 } },
    );
  }
  const image = raw.removeAlpha();
  const quality = options.quality ?? 90;
  const data =
    format === 'png'
      ? await image.png({ compressionLevel: 6 }).toBuffer()
      : format === 'webp'
        ? await image.webp({ quality, smartSubsample: true }).toBuffer()
        : await image.jpeg({ quality, mozjpeg: true, chromaSubsampling: '4:4:4' }).toBuffer();
  return { data, contentType: CONTENT_TYPES[format], width, height };
}
