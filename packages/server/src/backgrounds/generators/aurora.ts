import { mixHex, sampleStops } from '../color.ts';
import { createSeededRandom } from '../seeded-random.ts';
import {
  cssLinearGradient,
  type SoftBlob,
  softBlobEllipse,
  softBlobGradient,
  svgDocument,
} from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';

/** Blurred aurora: luminous ribbons of colour drifting across a night (or pale) sky. */
export interface AuroraConfig extends PaletteColors {
  generator: 'aurora';
  seed: number;
  /** Number of ribbons (2..4). */
  ribbons: number;
  /** Vertical swing of a ribbon, relative to the height (0.1..0.35). */
  amplitude: number;
  /** `screen` makes overlaps glow (dark skies); `normal` for pale ones. */
  blend: 'screen' | 'normal';
  grain: number;
}

export function planAurora(config: AuroraConfig, frame: RenderFrame): RenderPlan {
  const rnd = createSeededRandom(config.seed);
  const { width, height } = frame;
  const diagonal = Math.hypot(width, height);
  const defs = [
    cssLinearGradient('sky', 180, width, height, [
      { color: config.base, offset: 0 },
      { color: mixHex(config.base, config.colors[0] as string, 0.22), offset: 1 },
    ]),
  ];
  const ribbons: string[] = [];
  let id = 0;
  for (let r = 0; r < config.ribbons; r++) {
    const baseY =
      height * (0.3 + (0.45 * r) / Math.max(1, config.ribbons - 1)) + rnd.range(-0.06, 0.06) * height;
    const phase = rnd.range(0, Math.PI * 2);
    const frequency = rnd.range(0.8, 1.6);
    const tilt = rnd.range(-0.18, 0.18) * height;
    const ramp = [
      config.colors[r % config.colors.length],
      config.colors[(r + 1) % config.colors.length],
      config.colors[(r + 2) % config.colors.length],
    ] as string[];
    const steps = 9;
    for (let k = 0; k <= steps; k++) {
      const t = k / steps;
      const x = (t * 1.3 - 0.15) * width;
      const y =
        baseY + Math.sin(t * Math.PI * 2 * frequency + phase) * config.amplitude * height + tilt * (t - 0.5);
      const slope =
        (Math.cos(t * Math.PI * 2 * frequency + phase) *
          config.amplitude *
          height *
          Math.PI *
          2 *
          frequency) /
        width;
      const band: SoftBlob = {
        cx: x,
        cy: y,
        rx: diagonal * rnd.range(0.16, 0.24),
        ry: diagonal * rnd.range(0.04, 0.075),
        rotate: (Math.atan(slope) * 180) / Math.PI,
        color: sampleStops(ramp, t),
        opacity: rnd.range(0.5, 0.75),
      };
      // The curtain: a taller, fainter glow rising above the bright band.
      const veil: SoftBlob = {
        ...band,
        cy: y - band.ry * 1.6,
        ry: band.ry * 2.6,
        opacity: band.opacity * 0.3,
      };
      for (const blob of [veil, band]) {
        defs.push(softBlobGradient(`a${id}`, blob));
        ribbons.push(softBlobEllipse(blob, `url(#a${id++})`));
      }
    }
  }
  const body = [
    '<rect width="100%" height="100%" fill="url(#sky)"/>',
    `<g style="mix-blend-mode:${config.blend}">${ribbons.join('')}</g>`,
  ];
  return {
    svg: svgDocument(width, height, defs, body),
    ...(config.grain > 0 ? { grain: { amount: config.grain, seed: config.seed } } : {}),
  };
}
