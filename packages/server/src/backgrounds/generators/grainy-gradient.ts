import { createSeededRandom } from '../seeded-random.ts';
import { cssLinearGradient, softBlobEllipse, softBlobGradient, svgDocument } from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';
import { layoutBlobs } from './mesh-gradient.ts';

/** Grainy gradient: a bold two-tone sweep with a couple of colour clouds and heavy film grain. */
export interface GrainyGradientConfig extends PaletteColors {
  generator: 'grainy-gradient';
  seed: number;
  /** CSS angle of the sweep, degrees. */
  angle: number;
  /** Grain strength (0.06..0.16). */
  grain: number;
}

export function planGrainyGradient(config: GrainyGradientConfig, frame: RenderFrame): RenderPlan {
  const rnd = createSeededRandom(config.seed);
  const { width, height } = frame;
  const [a, b, c, d] = config.colors as [string, string, string, string];
  const defs = [
    cssLinearGradient('sweep', config.angle, width, height, [
      { color: config.base, offset: 0 },
      { color: a, offset: 0.45 },
      { color: b, offset: 1 },
    ]),
  ];
  const body = ['<rect width="100%" height="100%" fill="url(#sweep)"/>'];
  layoutBlobs(rnd, frame, 3, [c, d, a], { min: 0.26, max: 0.4, opacity: [0.7, 0.95] }).forEach((blob, i) => {
    defs.push(softBlobGradient(`c${i}`, blob));
    body.push(softBlobEllipse(blob, `url(#c${i})`));
  });
  return { svg: svgDocument(width, height, defs, body), grain: { amount: config.grain, seed: config.seed } };
}
