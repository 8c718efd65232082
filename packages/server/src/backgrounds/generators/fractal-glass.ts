import { mixHex } from '../color.ts';
import { createSeededRandom } from '../seeded-random.ts';
import {
  cssLinearGradient,
  gradientStops,
  num,
  type SoftBlob,
  softBlobExtent,
  softBlobGradient,
  svgDocument,
} from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';
import { layoutBlobs } from './mesh-gradient.ts';

/**
 * Fractal (reeded) glass: colour fields seen through vertical flutes. Each flute shows the fields
 * squeezed (or mirrored) about its own centre and is shaded like a glass cylinder.
 */
export interface FractalGlassConfig extends PaletteColors {
  generator: 'fractal-glass';
  seed: number;
  /** Number of flutes across the width (10..40). */
  flutes: number;
  /** Horizontal scale of the image inside a flute: 0.2..0.6, negative mirrors. */
  refraction: number;
  /** Strength of the glass highlight and shadow (0..1). */
  sheen: number;
  grain: number;
}

/**
 * The part of a strip a refracted blob can colour: its bounding box, squeezed by the flute
 * (`x -> to + scale * (x - from)`), within the strip and the canvas; null when they miss. Outside
 * that box the blob's gradient is fully transparent, so filling only the box changes no pixel
 * and spares resvg most of the strip-by-blob work at 2560x1600.
 */
function refractedBlobArea(
  blob: SoftBlob,
  to: number,
  from: number,
  scale: number,
  strip: { left: number; right: number },
  height: number,
): { left: number; right: number; top: number; bottom: number } | null {
  const { hx, hy } = softBlobExtent(blob);
  // A pixel of margin keeps the anti-aliased rim inside the box.
  const ends = [to + scale * (blob.cx - hx - 1 - from), to + scale * (blob.cx + hx + 1 - from)];
  const left = Math.max(strip.left, Math.min(...ends));
  const right = Math.min(strip.right, Math.max(...ends));
  const top = Math.max(0, blob.cy - hy - 1);
  const bottom = Math.min(height, blob.cy + hy + 1);
  return left < right && top < bottom ? { left, right, top, bottom } : null;
}

export function planFractalGlass(config: FractalGlassConfig, frame: RenderFrame): RenderPlan {
  const rnd = createSeededRandom(config.seed);
  const { width, height } = frame;
  const defs = [
    cssLinearGradient('wash', rnd.range(120, 200), width, height, [
      { color: config.base, offset: 0 },
      { color: mixHex(config.base, config.colors[1] ?? config.base, 0.3), offset: 1 },
    ]),
  ];
  const blobs = layoutBlobs(rnd, frame, 5, config.colors, { min: 0.26, max: 0.42, opacity: [0.9, 1] });
  const s = config.sheen;
  defs.push(
    `<linearGradient id="flute" x1="0" y1="0" x2="1" y2="0">${gradientStops([
      { color: '#FFFFFF', offset: 0, opacity: 0.28 * s },
      { color: '#FFFFFF', offset: 0.1, opacity: 0.1 * s },
      { color: '#FFFFFF', offset: 0.45, opacity: 0 },
      { color: '#000000', offset: 0.8, opacity: 0.1 * s },
      { color: '#000000', offset: 1, opacity: 0.3 * s },
    ])}</linearGradient>`,
  );
  // The strips tile the whole canvas with opaque wash, so no full-canvas wash is drawn under them.
  const body: string[] = [];
  const stripWidth = width / config.flutes;
  for (let i = 0; i < config.flutes; i++) {
    const x = i * stripWidth;
    const centre = x + stripWidth / 2;
    const shift = Math.sin(i * 0.9 + config.seed) * stripWidth * 0.6;
    const refract = `translate(${num(centre + shift)} 0) scale(${config.refraction} 1) translate(${num(-centre)} 0)`;
    // Each strip overlaps the next by a pixel so anti-aliased edges never show a seam.
    const strip = { left: x, right: x + stripWidth + 1 };
    body.push(
      `<rect x="${num(x)}" y="0" width="${num(stripWidth + 1)}" height="${height}" fill="url(#wash)"/>`,
    );
    blobs.forEach((blob, j) => {
      const area = refractedBlobArea(blob, centre + shift, centre, config.refraction, strip, height);
      // A blob refracted away from this strip leaves it untouched: no gradient to draw.
      if (!area) return;
      defs.push(softBlobGradient(`g${i}_${j}`, blob, refract));
      body.push(
        `<rect x="${num(area.left)}" y="${num(area.top)}" width="${num(area.right - area.left)}" height="${num(area.bottom - area.top)}" fill="url(#g${i}_${j})"/>`,
      );
    });
    body.push(`<rect x="${num(x)}" y="0" width="${num(stripWidth)}" height="${height}" fill="url(#flute)"/>`);
  }
  return {
    svg: svgDocument(width, height, defs, body),
    ...(config.grain > 0 ? { grain: { amount: config.grain, seed: config.seed } } : {}),
  };
}
