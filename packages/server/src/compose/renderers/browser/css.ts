import { parseCssColor, type Rgba } from '../../css/css-color.ts';
import { type GradientColorStop, type ParsedGradient, parseCssGradient } from '../../css/css-gradient.ts';

/**
 * Text for the browser renderer's HTML document. Nothing a user typed reaches the document as
 * written: text is escaped, and CSS values (gradients, text shadows, colours) are rebuilt from
 * their parsed form, so a value can only ever be numbers and `rgba()` colours.
 */

import { escapeHtml } from '../../../escape-html.ts';

export { escapeHtml };

/** A finite number as short CSS text (never `NaN`, `Infinity` or exponent notation). */
export function num(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const r = Math.round(n * 1000) / 1000;
  return Math.abs(r) < 1e-6 ? '0' : String(r);
}

/** `12.5px` */
export const px = (n: number): string => `${num(n)}px`;

/** The colour as `rgba()`, channels clamped. */
export function rgba(c: Rgba): string {
  const ch = (v: number) => Math.max(0, Math.min(255, Math.round(Number.isFinite(v) ? v : 0)));
  const a = Math.max(0, Math.min(1, Number.isFinite(c.a) ? c.a : 1));
  return `rgba(${ch(c.r)},${ch(c.g)},${ch(c.b)},${num(a)})`;
}

const pct = (v: number) => `${num(v * 100)}%`;
const stops = (list: GradientColorStop[]) => list.map((s) => `${rgba(s.color)} ${pct(s.offset)}`).join(',');

/**
 * A parsed gradient back as CSS, with every stop at an explicit offset (the parser already
 * resolved implicit ones), so Chromium paints exactly what the raster renderer paints.
 */
export function gradientToCss(g: ParsedGradient): string {
  if (g.kind === 'linear') {
    const dir = g.corner
      ? `to ${g.corner.y < 0 ? 'top' : 'bottom'} ${g.corner.x < 0 ? 'left' : 'right'}`
      : `${num(g.angle)}deg`;
    return `linear-gradient(${dir},${stops(g.stops)})`;
  }
  const at = `at ${pct(g.center.x)} ${pct(g.center.y)}`;
  if (g.kind === 'radial') return `radial-gradient(${g.shape} ${g.extent} ${at},${stops(g.stops)})`;
  return `conic-gradient(from ${num(g.from)}deg ${at},${stops(g.stops)})`;
}

/** A gradient given as CSS text, re-serialised from its parsed form; null when it does not parse. */
export function safeGradientCss(css: string): string | null {
  try {
    return gradientToCss(parseCssGradient(css));
  } catch {
    return null;
  }
}

/**
 * `text-shadow` rebuilt from `<x> <y> [<blur>] <colour>` (the form the request validates): the
 * lengths as numbers, the colour through the colour parser. Null when it does not parse.
 */
export function safeTextShadow(css: string): string | null {
  const m = /^\s*(-?[\d.]+)(?:px)?\s+(-?[\d.]+)(?:px)?(?:\s+([\d.]+)(?:px)?)?\s+(.+?)\s*$/.exec(css);
  if (!m) return null;
  const color = parseCssColor(m[4] as string);
  const [x, y, blur] = [m[1], m[2], m[3] ?? '0'].map(Number) as [number, number, number];
  if (!color || ![x, y, blur].every(Number.isFinite)) return null;
  return `${px(x)} ${px(y)} ${px(blur)} ${rgba(color)}`;
}

/** An inline `style` attribute from property/value pairs (values are built here, never user text). */
export function style(props: Record<string, string | number | null | undefined | false>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(props)) {
    if (v === null || v === undefined || v === false) continue;
    parts.push(`${k}:${typeof v === 'number' ? px(v) : v}`);
  }
  return escapeHtml(parts.join(';'));
}
