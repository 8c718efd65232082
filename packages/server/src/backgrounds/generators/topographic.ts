import { mixHex } from '../color.ts';
import { contourLines } from '../contour-lines.ts';
import { createGradientNoise, fractalNoise } from '../gradient-noise.ts';
import { cssLinearGradient, cssRadialGradient, num, svgDocument } from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';

/** Topographic map lines: contour lines of a generated terrain, with every fifth line stronger. */
export interface TopographicConfig extends PaletteColors {
  generator: 'topographic';
  seed: number;
  /** Number of contour levels (10..28). */
  levels: number;
  /** Terrain scale: hills across the long side (1.2..3.5). */
  frequency: number;
  /** Line width at a 1600x1000 canvas, in pixels (scales with the canvas). */
  lineWidth: number;
}

const GRID = 150;

export function planTopographic(config: TopographicConfig, frame: RenderFrame): RenderPlan {
  const { width, height } = frame;
  const long = Math.max(width, height);
  const cols = GRID;
  const rows = Math.max(2, Math.round((GRID * height) / width));
  const noise = createGradientNoise(config.seed);
  const warp = createGradientNoise(config.seed + 1);
  const values: Float64Array[] = [];
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (let r = 0; r <= rows; r++) {
    const row = new Float64Array(cols + 1);
    for (let c = 0; c <= cols; c++) {
      const x = ((c / cols) * width * config.frequency) / long;
      const y = ((r / rows) * height * config.frequency) / long;
      const wx = x + 0.6 * warp(x * 0.7, y * 0.7);
      const wy = y + 0.6 * warp(x * 0.7 + 31.4, y * 0.7 + 17.2);
      const v = fractalNoise(noise, wx, wy, 3);
      row[c] = v;
      min = Math.min(min, v);
      max = Math.max(max, v);
    }
    values.push(row);
  }
  const sx = width / cols;
  const sy = height / rows;
  const scale = Math.hypot(width, height) / Math.hypot(1600, 1000);
  const stroke = Math.max(0.6, config.lineWidth * scale);
  const [c0, c1, c2] = config.colors as [string, string, string];
  const defs = [
    cssRadialGradient('ground', { x: width * 0.3, y: height * 0.2 }, width, height, [
      { color: mixHex(config.base, c0, 0.12), offset: 0 },
      { color: config.base, offset: 0.7 },
    ]),
    cssLinearGradient('ink', 120, width, height, [
      { color: c1, offset: 0 },
      { color: c2, offset: 1 },
    ]),
  ];
  const body = ['<rect width="100%" height="100%" fill="url(#ground)"/>'];
  for (let k = 1; k <= config.levels; k++) {
    const level = min + ((max - min) * k) / (config.levels + 1);
    const lines = contourLines(values, level).filter((line) => line.length > 3);
    if (lines.length === 0) continue;
    const d = lines
      .map((line) => `M${line.map(([x, y]) => `${num(x * sx)} ${num(y * sy)}`).join('L')}`)
      .join('');
    const index = k % 5 === 0;
    body.push(
      `<path d="${d}" fill="none" stroke="url(#ink)" stroke-opacity="${index ? 0.95 : 0.55}" stroke-width="${num(index ? stroke * 2 : stroke)}" stroke-linejoin="round" stroke-linecap="round"/>`,
    );
  }
  return { svg: svgDocument(width, height, defs, body), crispEdges: true };
}
