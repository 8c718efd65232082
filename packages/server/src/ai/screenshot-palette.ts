import { converter, formatHex, wcagLuminance } from 'culori';
import { applyPaletteSync, buildPaletteSync, utils } from 'image-q';
import sharp from 'sharp';
import type { ScreenshotPalette } from './ai-types.ts';

const toOklch = converter('oklch');
/** Pixels a palette is read from: enough for the dominant colours, cheap to quantise. */
const SAMPLE = { width: 96, height: 72 };

/**
 * The screenshot's dominant colours (Wu quantisation by image-q, most frequent first) and the
 * mean luminance and chroma (culori) the tone is read from, plus the 400x300 thumbnail a vision
 * model is shown. One decode, two small resizes.
 */
export async function readScreenshot(
  png: Buffer,
): Promise<{ palette: ScreenshotPalette; thumbnail: Buffer }> {
  const image = sharp(png);
  const [sample, thumbnail] = await Promise.all([
    image
      .clone()
      .resize(SAMPLE.width, SAMPLE.height, { fit: 'fill' })
      .removeAlpha()
      .ensureAlpha()
      .raw()
      .toBuffer(),
    image.clone().resize(400, 300, { fit: 'cover', position: 'top' }).png().toBuffer(),
  ]);
  return { palette: paletteOf(sample, SAMPLE.width, SAMPLE.height), thumbnail };
}

/** Palette and tone metrics of RGBA pixels. */
export function paletteOf(rgba: Buffer, width: number, height: number): ScreenshotPalette {
  const points = utils.PointContainer.fromUint8Array(new Uint8Array(rgba), width, height);
  const palette = buildPaletteSync([points], { colors: 8, paletteQuantization: 'wuquant' });
  const mapped = applyPaletteSync(points, palette).getPointArray();
  const counts = new Map<string, number>();
  let luminance = 0;
  let chroma = 0;
  for (const p of mapped) {
    const hex = formatHex({ mode: 'rgb', r: p.r / 255, g: p.g / 255, b: p.b / 255 });
    counts.set(hex, (counts.get(hex) ?? 0) + 1);
  }
  const total = mapped.length || 1;
  for (const [hex, n] of counts) {
    luminance += wcagLuminance(hex) * n;
    chroma += (toOklch(hex)?.c ?? 0) * n;
  }
  const colors = [...counts.entries()]
    .filter(([, n]) => n / total >= 0.005)
    .sort((a, b) => b[1] - a[1])
    .map(([hex]) => hex);
  return { colors, luminance: luminance / total, chroma: chroma / total };
}
