import { mixHex } from '../color.ts';
import { createSeededRandom } from '../seeded-random.ts';
import {
  cssLinearGradient,
  gradientStops,
  num,
  softBlobEllipse,
  softBlobGradient,
  svgDocument,
} from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';

/** Bokeh: out-of-focus discs of light, large and soft far away, smaller and crisper up close. */
export interface BokehConfig extends PaletteColors {
  generator: 'bokeh';
  seed: number;
  /** Number of discs (25..90). */
  discs: number;
  /** `screen` for lights on a dark scene, `normal` for a pale one. */
  blend: 'screen' | 'normal';
  grain: number;
}

export function planBokeh(config: BokehConfig, frame: RenderFrame): RenderPlan {
  const rnd = createSeededRandom(config.seed);
  const { width, height } = frame;
  const diagonal = Math.hypot(width, height);
  const defs = [
    cssLinearGradient('scene', rnd.range(140, 220), width, height, [
      { color: config.base, offset: 0 },
      { color: mixHex(config.base, config.colors[0] as string, 0.3), offset: 1 },
    ]),
  ];
  config.colors.forEach((color, i) => {
    defs.push(
      `<radialGradient id="soft${i}">${gradientStops([
        { color, offset: 0, opacity: 0.5 },
        { color, offset: 0.55, opacity: 0.42 },
        { color, offset: 1, opacity: 0 },
      ])}</radialGradient>`,
      `<radialGradient id="sharp${i}">${gradientStops([
        { color, offset: 0, opacity: 0.45 },
        { color, offset: 0.82, opacity: 0.55 },
        { color: mixHex(color, '#FFFFFF', 0.35), offset: 0.93, opacity: 0.8 },
        { color, offset: 1, opacity: 0 },
      ])}</radialGradient>`,
    );
  });
  const glows = [0, 1].map((i) => {
    const blob = {
      cx: rnd.range(0.1, 0.9) * width,
      cy: rnd.range(0.1, 0.9) * height,
      rx: diagonal * 0.35,
      ry: diagonal * 0.25,
      rotate: rnd.range(0, 180),
      color: config.colors[i + 1] as string,
      opacity: 0.55,
    };
    defs.push(softBlobGradient(`glow${i}`, blob));
    return softBlobEllipse(blob, `url(#glow${i})`);
  });
  const discs: string[] = [];
  // Far discs first (big and soft), then nearer ones (smaller, with a bright rim).
  for (let i = 0; i < config.discs; i++) {
    const depth = i / config.discs;
    const near = depth > 0.55;
    const radius = diagonal * (near ? rnd.range(0.008, 0.03) : rnd.range(0.03, 0.075));
    // Discs gather along a diagonal band, like city lights through a lens.
    const t = rnd.next();
    const cx = t * width * 1.1 - width * 0.05;
    const cy = (0.75 - 0.5 * t + rnd.range(-0.28, 0.28)) * height;
    const colorIndex = rnd.int(0, config.colors.length - 1);
    discs.push(
      `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(radius)}" fill="url(#${near ? 'sharp' : 'soft'}${colorIndex})" opacity="${num(rnd.range(0.45, 1))}"/>`,
    );
  }
  const body = [
    '<rect width="100%" height="100%" fill="url(#scene)"/>',
    ...glows,
    `<g style="mix-blend-mode:${config.blend}">${discs.join('')}</g>`,
  ];
  return {
    svg: svgDocument(width, height, defs, body),
    ...(config.grain > 0 ? { grain: { amount: config.grain, seed: config.seed } } : {}),
  };
}
