import { num } from './svg-shapes.ts';

/**
 * A status icon drawn from plain shapes (our own drawing, not OS artwork), `width` device units
 * wide at scale 1, drawn with its left edge at `x` and vertically centred on `cy`.
 */
export interface StatusGlyph {
  width: number;
  draw(x: number, cy: number, color: string): string;
}

/** Four rising signal bars, bottom-aligned: the cellular indicator. */
export function cellularGlyph(scale = 1): StatusGlyph {
  const bar = 3 * scale;
  const gap = 1.6 * scale;
  const heights = [4, 6.3, 8.6, 11].map((h) => h * scale);
  const tallest = 11 * scale;
  return {
    width: 4 * bar + 3 * gap,
    draw(x, cy, color) {
      const bottom = cy + tallest / 2;
      return heights
        .map(
          (h, i) =>
            `<rect x="${num(x + i * (bar + gap))}" y="${num(bottom - h)}" width="${num(bar)}" height="${num(h)}" rx="${num(0.9 * scale)}" fill="${color}"/>`,
        )
        .join('');
    },
  };
}

/**
 * The Wi-Fi fan: a dot wedge and two arcs opening upwards over a quarter turn, with round ends.
 */
export function wifiGlyph(scale = 1): StatusGlyph {
  const outer = 11 * scale;
  const stroke = 2.3 * scale;
  const width = 2 * outer * Math.SQRT1_2 + stroke * 0.6;
  return {
    width,
    draw(x, cy, color) {
      const ax = x + width / 2;
      // The fan's apex sits below the centre so the glyph's box (apex to outer arc) centres on cy.
      const ay = cy + (outer - stroke / 2) / 2 + 0.35 * scale;
      const point = (r: number, deg: number) => {
        const a = (deg * Math.PI) / 180;
        return `${num(ax + r * Math.cos(a))},${num(ay - r * Math.sin(a))}`;
      };
      const arc = (r: number) =>
        `<path d="M${point(r, 135)}A${num(r)},${num(r)} 0 0 1 ${point(r, 45)}" fill="none" stroke="${color}" stroke-width="${num(stroke)}" stroke-linecap="round"/>`;
      const dot = 3.4 * scale;
      const wedge = `<path d="M${num(ax)},${num(ay)}L${point(dot, 135)}A${num(dot)},${num(dot)} 0 0 1 ${point(dot, 45)}Z" fill="${color}" stroke="${color}" stroke-width="${num(0.9 * scale)}" stroke-linejoin="round"/>`;
      return `${arc(outer - stroke / 2)}${arc(outer - stroke / 2 - 3.6 * scale)}${wedge}`;
    },
  };
}

/** A full battery: a faint rounded outline, a solid charge and the terminal nub. */
export function batteryGlyph(scale = 1): StatusGlyph {
  const w = 24.5 * scale;
  const h = 11.5 * scale;
  const nub = { w: 1.4 * scale, h: 4 * scale, gap: 1.1 * scale };
  return {
    width: w + nub.gap + nub.w,
    draw(x, cy, color) {
      const y = cy - h / 2;
      const line = 1 * scale;
      const inset = 2 * scale;
      return [
        `<rect x="${num(x + line / 2)}" y="${num(y + line / 2)}" width="${num(w - line)}" height="${num(h - line)}" rx="${num(3.6 * scale)}" fill="none" stroke="${color}" stroke-width="${num(line)}" opacity="0.4"/>`,
        `<rect x="${num(x + inset)}" y="${num(y + inset)}" width="${num(w - 2 * inset)}" height="${num(h - 2 * inset)}" rx="${num(2 * scale)}" fill="${color}"/>`,
        `<path d="M${num(x + w + nub.gap)},${num(cy - nub.h / 2)}h${num(nub.w * 0.3)}a${num(nub.w * 0.7)},${num(nub.w * 0.7)} 0 0 1 ${num(nub.w * 0.7)},${num(nub.w * 0.7)}v${num(nub.h - 1.4 * nub.w)}a${num(nub.w * 0.7)},${num(nub.w * 0.7)} 0 0 1 ${num(-nub.w * 0.7)},${num(nub.w * 0.7)}h${num(-nub.w * 0.3)}Z" fill="${color}" opacity="0.45"/>`,
      ].join('');
    },
  };
}

/** A magnifying glass: the generic search item of a desktop menu bar. */
export function searchGlyph(scale = 1): StatusGlyph {
  const r = 4.6 * scale;
  const stroke = 1.6 * scale;
  const width = 2 * r + stroke + 4 * scale;
  return {
    width,
    draw(x, cy, color) {
      const cx = x + r + stroke / 2;
      const ccy = cy - 1.6 * scale;
      const d = r * Math.SQRT1_2;
      return `<circle cx="${num(cx)}" cy="${num(ccy)}" r="${num(r)}" fill="none" stroke="${color}" stroke-width="${num(stroke)}"/><path d="M${num(cx + d)},${num(ccy + d)}L${num(cx + d + 3.6 * scale)},${num(ccy + d + 3.6 * scale)}" stroke="${color}" stroke-width="${num(stroke * 1.25)}" stroke-linecap="round"/>`;
    },
  };
}

/** The width of a row of `glyphs` set `gap` apart. */
export function glyphRowWidth(glyphs: StatusGlyph[], gap: number): number {
  return glyphs.reduce((w, g) => w + g.width, 0) + gap * Math.max(0, glyphs.length - 1);
}

/** Draws glyphs in a row starting at `left`, `gap` apart, centred on `cy`. */
export function glyphRow(
  glyphs: StatusGlyph[],
  left: number,
  cy: number,
  gap: number,
  color: string,
): string {
  let x = left;
  const parts: string[] = [];
  for (const g of glyphs) {
    parts.push(g.draw(x, cy, color));
    x += g.width + gap;
  }
  return parts.join('');
}

/**
 * Draws glyphs in a row ending at `right` (their right edge), `gap` apart, centred on `cy`.
 * Returns the SVG and the row's left edge, so text can be placed before it.
 */
export function glyphRowFromRight(
  glyphs: StatusGlyph[],
  right: number,
  cy: number,
  gap: number,
  color: string,
): { svg: string; left: number } {
  const left = right - glyphRowWidth(glyphs, gap);
  return { svg: glyphRow(glyphs, left, cy, gap, color), left };
}
