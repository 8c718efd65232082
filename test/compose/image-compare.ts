import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type { RawImage } from '../../packages/server/src/compose/renderers/raster/pixels.ts';

export interface CompareResult {
  ok: boolean;
  /** Fraction of pixels whose largest channel delta exceeds `pixelThreshold`. */
  differing: number;
  maxDelta: number;
  message: string;
}

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Compares a render with its committed reference PNG (per-pixel max channel delta, then the
 * fraction of pixels over the threshold). On failure writes actual + diff PNGs to test-output/
 * for a person to look at. UPDATE_REFERENCES=1 rewrites the reference instead.
 */
export async function compareWithReference(
  name: string,
  actual: RawImage,
  opts: { pixelThreshold?: number; maxDiffering?: number } = {},
): Promise<CompareResult> {
  const refPath = path.join(ROOT, 'test/compose/references', `${name}.png`);
  const png = () =>
    sharp(actual.data, { raw: { width: actual.width, height: actual.height, channels: 4 } }).png({
      compressionLevel: 9,
      palette: false,
    });
  if (process.env.UPDATE_REFERENCES === '1' || !existsSync(refPath)) {
    if (process.env.CI && !existsSync(refPath))
      return { ok: false, differing: 1, maxDelta: 255, message: `missing reference ${refPath}` };
    await png().toFile(refPath);
    return { ok: true, differing: 0, maxDelta: 0, message: 'reference written' };
  }
  const ref = await sharp(refPath).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  if (ref.info.width !== actual.width || ref.info.height !== actual.height) {
    await writeFailure(name, png, null);
    return {
      ok: false,
      differing: 1,
      maxDelta: 255,
      message: `size ${actual.width}x${actual.height} != reference ${ref.info.width}x${ref.info.height}`,
    };
  }
  const threshold = opts.pixelThreshold ?? 24;
  const diff = Buffer.alloc(actual.width * actual.height * 4);
  let over = 0;
  let maxDelta = 0;
  for (let i = 0; i < actual.data.length; i += 4) {
    let d = 0;
    for (let c = 0; c < 4; c++)
      d = Math.max(d, Math.abs((actual.data[i + c] as number) - (ref.data[i + c] as number)));
    maxDelta = Math.max(maxDelta, d);
    const bad = d > threshold;
    if (bad) over++;
    diff[i] = bad ? 255 : (ref.data[i] as number) / 4;
    diff[i + 1] = bad ? 0 : (ref.data[i + 1] as number) / 4;
    diff[i + 2] = bad ? 64 : (ref.data[i + 2] as number) / 4;
    diff[i + 3] = 255;
  }
  const differing = over / (actual.width * actual.height);
  const ok = differing <= (opts.maxDiffering ?? 0.002);
  if (!ok) await writeFailure(name, png, { data: diff, width: actual.width, height: actual.height });
  return {
    ok,
    differing,
    maxDelta,
    message: `${(differing * 100).toFixed(3)}% of pixels differ by more than ${threshold} (max delta ${maxDelta}); see test-output/compose/`,
  };
}

async function writeFailure(
  name: string,
  png: () => Sharp,
  diff: { data: Buffer; width: number; height: number } | null,
) {
  const dir = path.join(ROOT, 'test-output/compose');
  mkdirSync(dir, { recursive: true });
  await png().toFile(path.join(dir, `${name}.actual.png`));
  if (diff)
    await sharp(diff.data, { raw: { width: diff.width, height: diff.height, channels: 4 } })
      .png()
      .toFile(path.join(dir, `${name}.diff.png`));
}
