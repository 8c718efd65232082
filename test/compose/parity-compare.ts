import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { RawImage } from '../../packages/server/src/compose/renderers/raster/pixels.ts';

export interface ParityResult {
  ok: boolean;
  /**
   * Fraction of pixels whose largest channel delta exceeds the threshold. Colours are compared
   * premultiplied (rgb x alpha / 255) next to alpha: where a pixel is nearly transparent its
   * straight colour is noise (both modes un-premultiply a few levels of alpha differently)
   * and contributes nothing to any picture it is composited into.
   */
  differing: number;
  /** Mean of the per-pixel largest channel delta over the image. */
  meanDelta: number;
  message: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

const png = (img: RawImage) =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: 4 } }).png();

/**
 * Compares the two compose modes' renders of one scene: per pixel the largest delta of
 * premultiplied colour and alpha;
 * `differing` counts pixels over `pixelThreshold`. On failure writes both renders and a diff
 * (failing pixels red over a dimmed raster render) to test-output/parity/.
 */
export async function compareModes(
  name: string,
  raster: RawImage,
  browser: RawImage,
  opts: { pixelThreshold: number; maxDiffering: number; maxMeanDelta: number },
): Promise<ParityResult> {
  if (raster.width !== browser.width || raster.height !== browser.height) {
    await writeFailure(name, raster, browser, null);
    return {
      ok: false,
      differing: 1,
      meanDelta: 255,
      message: `size ${browser.width}x${browser.height} != raster ${raster.width}x${raster.height}`,
    };
  }
  const diff = Buffer.alloc(raster.width * raster.height * 4);
  let over = 0;
  let sum = 0;
  for (let i = 0; i < raster.data.length; i += 4) {
    const ra = raster.data[i + 3] as number;
    const ba = browser.data[i + 3] as number;
    let d = Math.abs(ra - ba);
    for (let c = 0; c < 3; c++)
      d = Math.max(
        d,
        Math.abs((raster.data[i + c] as number) * ra - (browser.data[i + c] as number) * ba) / 255,
      );
    sum += d;
    const bad = d > opts.pixelThreshold;
    if (bad) over++;
    diff[i] = bad ? 255 : (raster.data[i] as number) / 4;
    diff[i + 1] = bad ? 0 : (raster.data[i + 1] as number) / 4;
    diff[i + 2] = bad ? 64 : (raster.data[i + 2] as number) / 4;
    diff[i + 3] = 255;
  }
  const pixels = raster.width * raster.height;
  const differing = over / pixels;
  const meanDelta = sum / pixels;
  const ok = differing <= opts.maxDiffering && meanDelta <= opts.maxMeanDelta;
  if (!ok || process.env.PARITY_WRITE === '1')
    await writeFailure(name, raster, browser, {
      data: diff,
      width: raster.width,
      height: raster.height,
      channels: 4,
    });
  return {
    ok,
    differing,
    meanDelta,
    message: `${name}: ${(differing * 100).toFixed(3)}% of pixels differ by more than ${opts.pixelThreshold}, mean delta ${meanDelta.toFixed(2)}; see test-output/parity/`,
  };
}

async function writeFailure(name: string, raster: RawImage, browser: RawImage, diff: RawImage | null) {
  const dir = path.join(ROOT, 'test-output/parity');
  mkdirSync(dir, { recursive: true });
  await png(raster).toFile(path.join(dir, `${name}.raster.png`));
  await png(browser).toFile(path.join(dir, `${name}.browser.png`));
  if (diff) await png(diff).toFile(path.join(dir, `${name}.diff.png`));
}
