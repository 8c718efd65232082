import { num, svgDocument } from '../svg-markup.ts';
import type { RenderFrame, RenderPlan } from './generator-types.ts';

export const CSS_PATTERNS = [
  'dots',
  'polka',
  'grid',
  'graph-paper',
  'diagonal-stripes',
  'crosshatch',
  'checkerboard',
  'zigzag',
  'diamonds',
  'lined',
] as const;
export type CssPatternName = (typeof CSS_PATTERNS)[number];

/**
 * A repeating pattern that plain CSS can draw. Sizes are CSS pixels; `css` is the declaration
 * block to paste, and the SVG render paints the same tiles (up to the phase of diagonal stripes).
 */
export interface CssPatternConfig {
  generator: 'css-pattern';
  pattern: CssPatternName;
  /** Tile size in CSS pixels. */
  size: number;
  /** Line width or dot radius in CSS pixels. */
  stroke: number;
  background: string;
  foreground: string;
  /** Second ink (graph paper's minor lines). */
  secondary: string;
  css: string;
}

type PatternInput = Omit<CssPatternConfig, 'css' | 'generator'>;

/** The CSS declaration block for a pattern. */
export function cssPatternCss(p: PatternInput): string {
  const { size: s, stroke: l, background: bg, foreground: fg, secondary: fg2 } = p;
  const px = (v: number) => `${Math.round(v * 100) / 100}px`;
  const decl = (image: string, size: string, position?: string) =>
    `background-color: ${bg}; background-image: ${image}; background-size: ${size};${position ? ` background-position: ${position};` : ''}`;
  const tri = (deg: number) => `linear-gradient(${deg}deg, ${fg} 25%, transparent 25%)`;
  switch (p.pattern) {
    case 'dots':
      return decl(`radial-gradient(circle, ${fg} ${px(l)}, transparent ${px(l + 0.5)})`, `${px(s)} ${px(s)}`);
    case 'polka': {
      const dot = `radial-gradient(circle, ${fg} ${px(l)}, transparent ${px(l + 0.5)})`;
      return decl(`${dot}, ${dot}`, `${px(s)} ${px(s)}`, `0 0, ${px(s / 2)} ${px(s / 2)}`);
    }
    case 'grid':
      return decl(
        `linear-gradient(${fg} ${px(l)}, transparent ${px(l)}), linear-gradient(90deg, ${fg} ${px(l)}, transparent ${px(l)})`,
        `${px(s)} ${px(s)}`,
      );
    case 'graph-paper':
      return decl(
        [
          `linear-gradient(${fg} ${px(l * 1.5)}, transparent ${px(l * 1.5)})`,
          `linear-gradient(90deg, ${fg} ${px(l * 1.5)}, transparent ${px(l * 1.5)})`,
          `linear-gradient(${fg2} ${px(l)}, transparent ${px(l)})`,
          `linear-gradient(90deg, ${fg2} ${px(l)}, transparent ${px(l)})`,
        ].join(', '),
        `${px(s * 5)} ${px(s * 5)}, ${px(s * 5)} ${px(s * 5)}, ${px(s)} ${px(s)}, ${px(s)} ${px(s)}`,
      );
    case 'diagonal-stripes':
      return `background: repeating-linear-gradient(45deg, ${fg} 0 ${px(l)}, ${bg} ${px(l)} ${px(s)});`;
    case 'crosshatch':
      return decl(
        `repeating-linear-gradient(45deg, ${fg} 0 ${px(l)}, transparent ${px(l)} ${px(s)}), repeating-linear-gradient(-45deg, ${fg} 0 ${px(l)}, transparent ${px(l)} ${px(s)})`,
        'auto',
      );
    case 'checkerboard':
      return decl(
        `conic-gradient(${fg} 90deg, transparent 90deg 180deg, ${fg} 180deg 270deg, transparent 270deg)`,
        `${px(s)} ${px(s)}`,
      );
    case 'zigzag':
      return decl(
        `${tri(135)}, ${tri(225)}, ${tri(315)}, ${tri(45)}`,
        `${px(s)} ${px(s)}`,
        `${px(-s / 2)} 0, ${px(-s / 2)} 0, 0 0, 0 0`,
      );
    case 'diamonds':
      return decl(`${tri(135)}, ${tri(225)}, ${tri(315)}, ${tri(45)}`, `${px(s)} ${px(s)}`);
    case 'lined':
      return decl(`linear-gradient(transparent ${px(s - l)}, ${fg} ${px(s - l)})`, `100% ${px(s)}`);
  }
}

/** One layer of a pattern: a repeating tile, or stripes at 45 degrees (`rotate` -45 or 45). */
type PatternLayer =
  | { w: number; h: number; content: string }
  | { period: number; band: number; rotate: -45 | 45 };

/** The layers of one pattern period, in device pixels (`k` = scale). */
function tile(p: PatternInput, k: number): PatternLayer[] {
  const s = p.size * k;
  const l = p.stroke * k;
  const fg = p.foreground;
  const rect = (x: number, y: number, w: number, h: number, fill = fg) =>
    `<rect x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(h)}" fill="${fill}"/>`;
  const poly = (pts: number[][]) =>
    `<polygon points="${pts.map(([x, y]) => `${num(x!)},${num(y!)}`).join(' ')}" fill="${fg}"/>`;
  const circle = (x: number, y: number) =>
    `<circle cx="${num(x)}" cy="${num(y)}" r="${num(l + 0.25 * k)}" fill="${fg}"/>`;
  switch (p.pattern) {
    case 'dots':
      return [{ w: s, h: s, content: circle(s / 2, s / 2) }];
    case 'polka':
      return [
        {
          w: s,
          h: s,
          content: [circle(s / 2, s / 2), circle(0, 0), circle(s, 0), circle(0, s), circle(s, s)].join(''),
        },
      ];
    case 'grid':
      return [{ w: s, h: s, content: rect(0, 0, s, l) + rect(0, 0, l, s) }];
    case 'graph-paper': {
      const minor = Array.from(
        { length: 5 },
        (_, i) => rect(0, i * s, 5 * s, l, p.secondary) + rect(i * s, 0, l, 5 * s, p.secondary),
      ).join('');
      return [
        { w: 5 * s, h: 5 * s, content: minor + rect(0, 0, 5 * s, l * 1.5) + rect(0, 0, l * 1.5, 5 * s) },
      ];
    }
    case 'diagonal-stripes':
      return [{ period: s, band: l, rotate: -45 }];
    case 'crosshatch':
      return [
        { period: s, band: l, rotate: -45 },
        { period: s, band: l, rotate: 45 },
      ];
    case 'checkerboard':
      return [{ w: s, h: s, content: rect(s / 2, 0, s / 2, s / 2) + rect(0, s / 2, s / 2, s / 2) }];
    case 'zigzag':
      return [
        {
          w: s,
          h: s,
          content:
            poly([
              [0, 0],
              [s, 0],
              [s / 2, s / 2],
            ]) +
            poly([
              [0, s / 2],
              [0, s],
              [s / 2, s],
            ]) +
            poly([
              [s, s / 2],
              [s, s],
              [s / 2, s],
            ]),
        },
      ];
    case 'diamonds':
      return [
        {
          w: s,
          h: s,
          content:
            poly([
              [0, 0],
              [s / 2, 0],
              [0, s / 2],
            ]) +
            poly([
              [s, 0],
              [s / 2, 0],
              [s, s / 2],
            ]) +
            poly([
              [s, s],
              [s / 2, s],
              [s, s / 2],
            ]) +
            poly([
              [0, s],
              [s / 2, s],
              [0, s / 2],
            ]),
        },
      ];
    case 'lined':
      return [{ w: s, h: s, content: rect(0, s - l, s, l) }];
  }
}

/**
 * Stripes `band` wide every `period` across the canvas at 45 degrees: the pixels a tile of
 * `rect(0, 0, band, period)` under `patternTransform="rotate(rotate)"` covers, drawn as
 * parallelograms. resvg samples a rotated pattern tile through a resampling filter, which took
 * over a second per crosshatch at 2560x1600; plain polygons are fast and their edges stay sharp.
 */
function diagonalBands(
  layer: { period: number; band: number; rotate: -45 | 45 },
  width: number,
  height: number,
  fill: string,
): string {
  const sign = Math.sign(layer.rotate);
  // Pattern-space x of a canvas point: (x + sign * y) / sqrt(2); a band spans [k p, k p + band].
  const corners = [0, width].flatMap((x) => [0, height].map((y) => (x + sign * y) / Math.SQRT2));
  const first = Math.floor(Math.min(...corners) / layer.period) - 1;
  const last = Math.ceil(Math.max(...corners) / layer.period) + 1;
  const [top, bottom] = [-2, height + 2];
  const x = (along: number, y: number) => num(along * Math.SQRT2 - sign * y);
  const d: string[] = [];
  for (let k = first; k <= last; k++) {
    const a = k * layer.period;
    const b = a + layer.band;
    d.push(`M${x(a, top)} ${top}L${x(b, top)} ${top}L${x(b, bottom)} ${bottom}L${x(a, bottom)} ${bottom}Z`);
  }
  return `<path d="${d.join('')}" fill="${fill}"/>`;
}

export function planCssPattern(config: CssPatternConfig, frame: RenderFrame): RenderPlan {
  const layers = tile(config, frame.scale);
  const defs: string[] = [];
  const body = [`<rect width="100%" height="100%" fill="${config.background}"/>`];
  layers.forEach((layer, i) => {
    if ('period' in layer) {
      body.push(diagonalBands(layer, frame.width, frame.height, config.foreground));
      return;
    }
    defs.push(
      `<pattern id="p${i}" patternUnits="userSpaceOnUse" width="${num(layer.w)}" height="${num(layer.h)}">${layer.content}</pattern>`,
    );
    body.push(`<rect width="100%" height="100%" fill="url(#p${i})"/>`);
  });
  return { svg: svgDocument(frame.width, frame.height, defs, body), crispEdges: true };
}
