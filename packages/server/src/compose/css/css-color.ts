import { CSS_NAMED_COLORS } from './css-named-colors.ts';

/** A straight (not premultiplied) colour: r, g, b 0..255, a 0..1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function channel(token: string): number | null {
  if (token.endsWith('%')) {
    const n = Number(token.slice(0, -1));
    return Number.isFinite(n) ? clamp((n / 100) * 255, 0, 255) : null;
  }
  const n = Number(token);
  return Number.isFinite(n) ? clamp(n, 0, 255) : null;
}

function alpha(token: string | undefined): number | null {
  if (token === undefined) return 1;
  const n = token.endsWith('%') ? Number(token.slice(0, -1)) / 100 : Number(token);
  return Number.isFinite(n) ? clamp(n, 0, 1) : null;
}

function hue(token: string): number | null {
  const m = /^(-?[\d.]+)(deg|turn|rad|grad)?$/.exec(token);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = m[2] ?? 'deg';
  const deg =
    unit === 'turn' ? n * 360 : unit === 'rad' ? (n * 180) / Math.PI : unit === 'grad' ? n * 0.9 : n;
  return Number.isFinite(deg) ? ((deg % 360) + 360) % 360 : null;
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** Splits `rgb(1 2 3 / 50%)` and `rgb(1, 2, 3, 0.5)` argument lists alike. */
function functionArgs(body: string): string[] {
  return body
    .replace(/\//g, ' / ')
    .split(/[\s,]+/)
    .filter((t) => t.length > 0 && t !== '/');
}

function parseHex(hex: string): Rgba | null {
  if (!/^[0-9a-f]+$/i.test(hex)) return null;
  const expand = hex.length <= 4 ? [...hex].map((c) => c + c).join('') : hex;
  if (expand.length !== 6 && expand.length !== 8) return null;
  const n = (i: number) => Number.parseInt(expand.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: expand.length === 8 ? n(6) / 255 : 1 };
}

/**
 * Parses a CSS colour (hex, rgb[a](), hsl[a](), a named colour, `transparent`). Returns null
 * when the string is not one, so callers can name the field in their 400.
 */
export function parseCssColor(input: string): Rgba | null {
  const s = input.trim().toLowerCase();
  if (s === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  if (s.startsWith('#')) return parseHex(s.slice(1));
  const named = CSS_NAMED_COLORS[s];
  if (named !== undefined) return { r: (named >> 16) & 255, g: (named >> 8) & 255, b: named & 255, a: 1 };
  const fn = /^(rgba?|hsla?)\((.*)\)$/.exec(s);
  if (!fn) return null;
  const args = functionArgs(fn[2] ?? '');
  if (args.length !== 3 && args.length !== 4) return null;
  const a = alpha(args[3]);
  if (a === null) return null;
  if (fn[1]?.startsWith('rgb')) {
    const [r, g, b] = args.slice(0, 3).map(channel);
    if (r == null || g == null || b == null) return null;
    return { r: Math.round(r), g: Math.round(g), b: Math.round(b), a };
  }
  const h = hue(args[0] ?? '');
  const sat = args[1]?.endsWith('%') ? Number(args[1].slice(0, -1)) / 100 : Number.NaN;
  const light = args[2]?.endsWith('%') ? Number(args[2].slice(0, -1)) / 100 : Number.NaN;
  if (h === null || !Number.isFinite(sat) || !Number.isFinite(light)) return null;
  const [r, g, b] = hslToRgb(h, clamp(sat, 0, 1), clamp(light, 0, 1));
  return { r: Math.round(r), g: Math.round(g), b: Math.round(b), a };
}

/** The colour as `rgba(r, g, b, a)` for SVG and satori styles. */
export function cssRgba(c: Rgba): string {
  return `rgba(${c.r}, ${c.g}, ${c.b}, ${Math.round(c.a * 1000) / 1000})`;
}

/** The same colour with its alpha multiplied by `factor`. */
export function withAlpha(c: Rgba, factor: number): Rgba {
  return { ...c, a: clamp(c.a * factor, 0, 1) };
}

/** WCAG relative luminance 0..1 (alpha ignored); decides light or dark text on a background. */
export function relativeLuminance(c: Rgba): number {
  const lin = (v: number) => {
    const x = v / 255;
    return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}
