import type { Rect } from '../scene-types.ts';
import type { CornerRadii } from './frame-catalogue.ts';

const n = (v: number) => Math.round(v * 100) / 100;

/**
 * SVG path data of a rectangle with per-corner radii (clamped to half the shorter side), drawn
 * with circular arcs. Used for bodies, screens and the transparent screen hole.
 */
export function roundedRectPath(r: Rect, radii: CornerRadii | number): string {
  const max = Math.min(r.width, r.height) / 2;
  const [tl, tr, br, bl] = (typeof radii === 'number' ? [radii, radii, radii, radii] : radii).map((v) =>
    Math.max(0, Math.min(max, v)),
  ) as CornerRadii;
  const { x, y, width: w, height: h } = r;
  return [
    `M${n(x + tl)},${n(y)}`,
    `H${n(x + w - tr)}`,
    tr ? `A${n(tr)},${n(tr)} 0 0 1 ${n(x + w)},${n(y + tr)}` : '',
    `V${n(y + h - br)}`,
    br ? `A${n(br)},${n(br)} 0 0 1 ${n(x + w - br)},${n(y + h)}` : '',
    `H${n(x + bl)}`,
    bl ? `A${n(bl)},${n(bl)} 0 0 1 ${n(x)},${n(y + h - bl)}` : '',
    `V${n(y + tl)}`,
    tl ? `A${n(tl)},${n(tl)} 0 0 1 ${n(x + tl)},${n(y)}` : '',
    'Z',
  ].join('');
}

/** The rect shrunk by `d` on every side. */
export function insetRect(r: Rect, d: number): Rect {
  return { x: r.x + d, y: r.y + d, width: r.width - 2 * d, height: r.height - 2 * d };
}

/** Radii shrunk by `d` (concentric corners of an inset shape). */
export function insetRadii(radii: CornerRadii, d: number): CornerRadii {
  return radii.map((v) => Math.max(0, v - d)) as CornerRadii;
}

/** A vertical or horizontal linear gradient definition. */
export function linearGradient(
  id: string,
  stops: [offset: number, color: string, opacity?: number][],
  direction: 'vertical' | 'horizontal' = 'vertical',
): string {
  const [x2, y2] = direction === 'vertical' ? ['0', '1'] : ['1', '0'];
  const s = stops
    .map(
      ([o, c, a]) =>
        `<stop offset="${n(o)}" stop-color="${c}"${a === undefined ? '' : ` stop-opacity="${n(a)}"`}/>`,
    )
    .join('');
  return `<linearGradient id="${id}" x1="0" y1="0" x2="${x2}" y2="${y2}">${s}</linearGradient>`;
}

/** Wraps drawing in an SVG document of `pxWidth` x `pxHeight` showing device units 0..w x 0..h. */
export function svgDocument(
  pxWidth: number,
  pxHeight: number,
  width: number,
  height: number,
  defs: string,
  body: string,
): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${pxWidth}" height="${pxHeight}" viewBox="0 0 ${n(width)} ${n(height)}" preserveAspectRatio="none"><defs>${defs}</defs>${body}</svg>`;
}

/** Rounds a number for SVG output. */
export const num = n;
