import { mixHex, sampleStops } from '../color.ts';
import { createSeededRandom } from '../seeded-random.ts';
import { cssLinearGradient, num, svgDocument } from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';

/** Layered waves: paper-cut bands of colour stacked from the horizon down, each casting a soft shadow. */
export interface WavesConfig extends PaletteColors {
  generator: 'waves';
  seed: number;
  /** Number of bands (3..7). */
  layers: number;
  /** Crest height relative to the canvas height (0.03..0.12). */
  amplitude: number;
  /** Where the first band starts, relative to the height (0.15..0.5). */
  horizon: number;
}

/** A smooth closed path through points (Catmull-Rom as cubic Béziers), closed along the bottom. */
function wavePath(points: [number, number][], width: number, height: number): string {
  const p = points;
  let d = `M${num(p[0]![0])} ${num(p[0]![1])}`;
  for (let i = 0; i < p.length - 1; i++) {
    const p0 = p[Math.max(0, i - 1)]!;
    const p1 = p[i]!;
    const p2 = p[i + 1]!;
    const p3 = p[Math.min(p.length - 1, i + 2)]!;
    const c1x = p1[0] + (p2[0] - p0[0]) / 6;
    const c1y = p1[1] + (p2[1] - p0[1]) / 6;
    const c2x = p2[0] - (p3[0] - p1[0]) / 6;
    const c2y = p2[1] - (p3[1] - p1[1]) / 6;
    d += `C${num(c1x)} ${num(c1y)} ${num(c2x)} ${num(c2y)} ${num(p2[0])} ${num(p2[1])}`;
  }
  return `${d}L${num(width + 10)} ${height + 10}L-10 ${height + 10}Z`;
}

export function planWaves(config: WavesConfig, frame: RenderFrame): RenderPlan {
  const rnd = createSeededRandom(config.seed);
  const { width, height } = frame;
  const ramp = [config.colors[0], config.colors[1], config.colors[2]] as string[];
  const defs = [
    cssLinearGradient('sky', 180, width, height, [
      { color: mixHex(config.base, config.colors[3] as string, 0.25), offset: 0 },
      { color: config.base, offset: 0.6 },
    ]),
  ];
  const body = ['<rect width="100%" height="100%" fill="url(#sky)"/>'];
  const span = 1 - config.horizon;
  for (let layer = 0; layer < config.layers; layer++) {
    const t = layer / Math.max(1, config.layers - 1);
    const baseline = height * (config.horizon + span * 0.85 * t);
    const f1 = rnd.range(0.6, 1.4);
    const f2 = rnd.range(1.8, 3.2);
    const ph1 = rnd.range(0, Math.PI * 2);
    const ph2 = rnd.range(0, Math.PI * 2);
    const amp = config.amplitude * height * (1 - 0.35 * t);
    const points: [number, number][] = [];
    for (let k = 0; k <= 40; k++) {
      const x = (k / 40) * (width + 20) - 10;
      const u = x / width;
      points.push([
        x,
        baseline +
          amp * (0.72 * Math.sin(Math.PI * 2 * f1 * u + ph1) + 0.28 * Math.sin(Math.PI * 2 * f2 * u + ph2)),
      ]);
    }
    const color = sampleStops(ramp, t);
    defs.push(
      cssLinearGradient(`w${layer}`, rnd.range(60, 120), width, height, [
        { color: mixHex(color, '#FFFFFF', 0.12), offset: 0 },
        { color, offset: 0.5 },
        { color: mixHex(color, config.base, 0.25), offset: 1 },
      ]),
    );
    const path = wavePath(points, width, height);
    for (const [dy, alpha] of [
      [0.018, 0.05],
      [0.011, 0.07],
      [0.005, 0.09],
    ] as const) {
      body.push(
        `<path d="${path}" transform="translate(0 ${num(-dy * height)})" fill="#000000" fill-opacity="${alpha}"/>`,
      );
    }
    body.push(`<path d="${path}" fill="url(#w${layer})"/>`);
  }
  return { svg: svgDocument(width, height, defs, body), crispEdges: true };
}
