import { mixHex, sampleStops } from '../color.ts';
import { createSeededRandom, type SeededRandom } from '../seeded-random.ts';
import { num, svgDocument } from '../svg-markup.ts';
import type { PaletteColors, RenderFrame, RenderPlan } from './generator-types.ts';

/** Geometric compositions: low-poly facets, Bauhaus tiles or isometric blocks. */
export interface GeometricConfig extends PaletteColors {
  generator: 'geometric';
  seed: number;
  style: 'low-poly' | 'bauhaus' | 'isometric';
  /** Cells across the long side of the canvas (6..18). */
  density: number;
}

function polygon(points: [number, number][], fill: string): string {
  // A hairline stroke in the fill colour closes anti-aliasing seams between neighbours.
  return `<polygon points="${points.map(([x, y]) => `${num(x)},${num(y)}`).join(' ')}" fill="${fill}" stroke="${fill}" stroke-width="0.6" stroke-linejoin="round"/>`;
}

function lowPoly(config: GeometricConfig, frame: RenderFrame, rnd: SeededRandom): string[] {
  const { width, height } = frame;
  const long = Math.max(width, height);
  const cell = long / config.density;
  const cols = Math.ceil(width / cell) + 1;
  const rows = Math.ceil(height / cell) + 1;
  const grid: [number, number][][] = [];
  for (let r = 0; r <= rows; r++) {
    const row: [number, number][] = [];
    for (let c = 0; c <= cols; c++) {
      const edgeX = c === 0 || c === cols;
      const edgeY = r === 0 || r === rows;
      row.push([
        (c - 0.5) * cell + (edgeX ? 0 : rnd.range(-0.38, 0.38) * cell),
        (r - 0.5) * cell + (edgeY ? 0 : rnd.range(-0.38, 0.38) * cell),
      ]);
    }
    grid.push(row);
  }
  const ramp = [config.base, ...config.colors.slice(0, 3)];
  const out: string[] = [];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const a = grid[r]![c]!;
      const b = grid[r]![c + 1]!;
      const cc = grid[r + 1]![c + 1]!;
      const d = grid[r + 1]![c]!;
      const tris: [number, number][][] =
        (r + c) % 2 === 0
          ? [
              [a, b, cc],
              [a, cc, d],
            ]
          : [
              [a, b, d],
              [b, cc, d],
            ];
      for (const tri of tris) {
        const x = (tri[0]![0] + tri[1]![0] + tri[2]![0]) / 3;
        const y = (tri[0]![1] + tri[1]![1] + tri[2]![1]) / 3;
        const t = Math.min(1, Math.max(0, (x / width) * 0.6 + (y / height) * 0.4));
        const shade = rnd.range(-0.09, 0.09);
        const color = sampleStops(ramp, t);
        out.push(
          polygon(tri, shade > 0 ? mixHex(color, '#FFFFFF', shade) : mixHex(color, '#000000', -shade)),
        );
      }
    }
  }
  return out;
}

function bauhaus(config: GeometricConfig, frame: RenderFrame, rnd: SeededRandom): string[] {
  const { width, height } = frame;
  const cell = Math.max(width, height) / config.density;
  const cols = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const ox = (width - cols * cell) / 2;
  const oy = (height - rows * cell) / 2;
  const colors = [config.base, ...config.colors];
  const out: string[] = [`<rect width="100%" height="100%" fill="${config.base}"/>`];
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const x = ox + c * cell;
      const y = oy + r * cell;
      const bg = rnd.pick(colors);
      let fg = rnd.pick(colors);
      if (fg === bg) fg = colors[(colors.indexOf(bg) + 2) % colors.length] as string;
      out.push(
        `<rect x="${num(x)}" y="${num(y)}" width="${num(cell + 0.5)}" height="${num(cell + 0.5)}" fill="${bg}"/>`,
      );
      const corner = rnd.int(0, 3);
      const cx = x + (corner === 1 || corner === 2 ? cell : 0);
      const cy = y + (corner >= 2 ? cell : 0);
      switch (rnd.int(0, 4)) {
        case 0: {
          // Quarter circle from a corner.
          const sx = corner === 1 || corner === 2 ? -1 : 1;
          const sy = corner >= 2 ? -1 : 1;
          out.push(
            `<path d="M${num(cx)} ${num(cy)}L${num(cx + sx * cell)} ${num(cy)}A${num(cell)} ${num(cell)} 0 0 ${sx * sy > 0 ? 1 : 0} ${num(cx)} ${num(cy + sy * cell)}Z" fill="${fg}"/>`,
          );
          break;
        }
        case 1:
          out.push(
            `<circle cx="${num(x + cell / 2)}" cy="${num(y + cell / 2)}" r="${num(cell * 0.36)}" fill="${fg}"/>`,
          );
          break;
        case 2: {
          // Half circle resting on one side.
          const vertical = corner % 2 === 0;
          out.push(
            vertical
              ? `<path d="M${num(x)} ${num(y + cell)}A${num(cell / 2)} ${num(cell / 2)} 0 0 1 ${num(x + cell)} ${num(y + cell)}Z" fill="${fg}"/>`
              : `<path d="M${num(x)} ${num(y)}A${num(cell / 2)} ${num(cell / 2)} 0 0 1 ${num(x)} ${num(y + cell)}Z" fill="${fg}"/>`,
          );
          break;
        }
        case 3:
          out.push(
            polygon(
              corner % 2 === 0
                ? [
                    [x, y],
                    [x + cell, y],
                    [x, y + cell],
                  ]
                : [
                    [x + cell, y],
                    [x + cell, y + cell],
                    [x, y + cell],
                  ],
              fg,
            ),
          );
          break;
        default:
          out.push(
            `<circle cx="${num(x + cell / 2)}" cy="${num(y + cell / 2)}" r="${num(cell * 0.36)}" fill="none" stroke="${fg}" stroke-width="${num(cell * 0.12)}"/>`,
          );
      }
    }
  }
  return out;
}

function isometric(config: GeometricConfig, frame: RenderFrame, rnd: SeededRandom): string[] {
  const { width, height } = frame;
  const a = Math.max(width, height) / config.density / 1.732;
  const dx = a * Math.sqrt(3);
  const out: string[] = [];
  const main = config.colors[0] as string;
  const shades = (color: string) =>
    [mixHex(color, '#FFFFFF', 0.25), color, mixHex(color, '#000000', 0.3)] as const;
  const rows = Math.ceil(height / (1.5 * a)) + 2;
  const cols = Math.ceil(width / dx) + 2;
  for (let r = -1; r < rows; r++) {
    for (let c = -1; c < cols; c++) {
      const cx = c * dx + (r % 2 === 0 ? 0 : dx / 2);
      const cy = r * 1.5 * a;
      const accent = rnd.next() < 0.14;
      const [top, left, right] = shades(
        accent ? (config.colors[rnd.int(1, 3)] as string) : mixHex(main, config.base, rnd.range(0, 0.25)),
      );
      const h = (a * Math.sqrt(3)) / 2;
      out.push(
        polygon(
          [
            [cx, cy - a],
            [cx + h, cy - a / 2],
            [cx, cy],
            [cx - h, cy - a / 2],
          ],
          top,
        ),
        polygon(
          [
            [cx - h, cy - a / 2],
            [cx, cy],
            [cx, cy + a],
            [cx - h, cy + a / 2],
          ],
          left,
        ),
        polygon(
          [
            [cx, cy],
            [cx + h, cy - a / 2],
            [cx + h, cy + a / 2],
            [cx, cy + a],
          ],
          right,
        ),
      );
    }
  }
  return out;
}

export function planGeometric(config: GeometricConfig, frame: RenderFrame): RenderPlan {
  const rnd = createSeededRandom(config.seed);
  const draw = config.style === 'low-poly' ? lowPoly : config.style === 'bauhaus' ? bauhaus : isometric;
  return {
    svg: svgDocument(
      frame.width,
      frame.height,
      [],
      [`<rect width="100%" height="100%" fill="${config.base}"/>`, ...draw(config, frame, rnd)],
    ),
    crispEdges: true,
  };
}
