import { mixHex } from '../color.ts';
import { createSeededRandom, type SeededRandom } from '../seeded-random.ts';
import {
  cssLinearGradient,
  type SoftBlob,
  softBlobEllipse,
  softBlobGradient,
  svgDocument,
} from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';

/** A mesh gradient: soft colour fields melting into each other over a base wash, with fine grain. */
export interface MeshGradientConfig extends PaletteColors {
  generator: 'mesh-gradient';
  seed: number;
  /** How many colour fields (4..8). */
  blobs: number;
  /** Size of the fields relative to the canvas diagonal (0.6..1.2). */
  spread: number;
  /** Grain strength, 0 for none. */
  grain: number;
}

/**
 * Blob centres spread over a jittered 3x3 grid (not uniform random), so fields never clump in
 * one corner: the composition a designer would make.
 */
export function layoutBlobs(
  rnd: SeededRandom,
  frame: RenderFrame,
  count: number,
  colors: readonly string[],
  size: { min: number; max: number; opacity: [number, number] },
): SoftBlob[] {
  const cells = Array.from({ length: 9 }, (_, i) => i);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = Math.floor(rnd.next() * (i + 1));
    [cells[i], cells[j]] = [cells[j] as number, cells[i] as number];
  }
  const diagonal = Math.hypot(frame.width, frame.height);
  return Array.from({ length: count }, (_, i) => {
    const cell = cells[i % cells.length] as number;
    const rx = diagonal * rnd.range(size.min, size.max);
    return {
      cx: ((cell % 3) + rnd.range(-0.15, 1.15)) * (frame.width / 3),
      cy: (Math.floor(cell / 3) + rnd.range(-0.15, 1.15)) * (frame.height / 3),
      rx,
      ry: rx * rnd.range(0.55, 0.95),
      rotate: rnd.range(0, 180),
      color: colors[i % colors.length] as string,
      opacity: rnd.range(size.opacity[0], size.opacity[1]),
    };
  });
}

export function planMeshGradient(config: MeshGradientConfig, frame: RenderFrame): RenderPlan {
  const rnd = createSeededRandom(config.seed);
  const { width, height } = frame;
  const angle = rnd.range(100, 170);
  const first = config.colors[0] as string;
  const defs = [
    cssLinearGradient('wash', angle, width, height, [
      { color: config.base, offset: 0 },
      { color: mixHex(config.base, first, 0.35), offset: 1 },
    ]),
  ];
  const body = ['<rect width="100%" height="100%" fill="url(#wash)"/>'];
  const blobs = layoutBlobs(rnd, frame, config.blobs, config.colors, {
    min: 0.32 * config.spread,
    max: 0.55 * config.spread,
    opacity: [0.75, 1],
  });
  blobs.forEach((blob, i) => {
    defs.push(softBlobGradient(`b${i}`, blob));
    body.push(softBlobEllipse(blob, `url(#b${i})`));
  });
  return {
    svg: svgDocument(width, height, defs, body),
    ...(config.grain > 0 ? { grain: { amount: config.grain, seed: config.seed } } : {}),
  };
}
