import { parseCssColor, type Rgba } from './css-color.ts';

/** A colour stop with its offset 0..1 along the gradient line (or around the turn, for conic). */
export interface GradientColorStop {
  color: Rgba;
  offset: number;
}

/** Centre of a radial or conic gradient as fractions of the painted box. */
export interface GradientCenter {
  x: number;
  y: number;
}

export type RadialExtent = 'closest-side' | 'farthest-side' | 'closest-corner' | 'farthest-corner';

/**
 * A parsed CSS gradient, independent of the box it paints: renderers turn it into pixels (raster)
 * or back into CSS (browser). `corner` keeps CSS's "magic corner" semantics of `to top right`,
 * whose angle depends on the box's aspect ratio.
 */
export type ParsedGradient =
  | { kind: 'linear'; angle: number; corner?: { x: -1 | 1; y: -1 | 1 }; stops: GradientColorStop[] }
  | {
      kind: 'radial';
      shape: 'circle' | 'ellipse';
      extent: RadialExtent;
      center: GradientCenter;
      stops: GradientColorStop[];
    }
  | { kind: 'conic'; from: number; center: GradientCenter; stops: GradientColorStop[] };

/** Why a gradient string was refused; the caller wraps it into a 400 naming the field. */
export class GradientSyntaxError extends Error {
  override readonly name = 'GradientSyntaxError';
}

/** Splits on commas outside parentheses. */
function splitTopLevel(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(s.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(s.slice(start).trim());
  return out;
}

/** Splits on spaces outside parentheses. */
function words(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (/\s/.test(ch) && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function parseAngle(token: string): number | null {
  const m = /^(-?\d*\.?\d+)(deg|turn|rad|grad)$/.exec(token);
  if (!m) return token === '0' ? 0 : null;
  const n = Number(m[1]);
  const unit = m[2];
  return unit === 'turn' ? n * 360 : unit === 'rad' ? (n * 180) / Math.PI : unit === 'grad' ? n * 0.9 : n;
}

function parsePosition(tokens: string[]): GradientCenter {
  const xWords: Record<string, number> = { left: 0, center: 0.5, right: 1 };
  const yWords: Record<string, number> = { top: 0, center: 0.5, bottom: 1 };
  const value = (t: string, table: Record<string, number>): number => {
    if (t in table) return table[t] as number;
    const m = /^(-?\d*\.?\d+)%$/.exec(t);
    if (m) return Number(m[1]) / 100;
    throw new GradientSyntaxError(`unsupported position "${t}" (use keywords or percentages)`);
  };
  if (tokens.length === 0 || tokens.length > 2)
    throw new GradientSyntaxError('a position needs one or two values');
  let [a = 'center', b = 'center'] = tokens;
  if (a === 'top' || a === 'bottom' || (tokens.length === 2 && (b === 'left' || b === 'right')))
    [a, b] = [b, a];
  return { x: value(a, xWords), y: value(b, yWords) };
}

function parseStops(parts: string[], angular: boolean): GradientColorStop[] {
  const raw: { color: Rgba; offset: number | null }[] = [];
  for (const part of parts) {
    const [colorToken, ...positions] = words(part);
    const color = colorToken === undefined ? null : parseCssColor(colorToken);
    if (!color) throw new GradientSyntaxError(`"${part}" is not a colour stop`);
    if (positions.length > 2) throw new GradientSyntaxError(`"${part}" has too many positions`);
    if (positions.length === 0) raw.push({ color, offset: null });
    for (const p of positions) {
      const pct = /^(-?\d*\.?\d+)%$/.exec(p);
      const deg = angular ? parseAngle(p) : null;
      if (pct) raw.push({ color, offset: Number(pct[1]) / 100 });
      else if (deg !== null) raw.push({ color, offset: deg / 360 });
      else
        throw new GradientSyntaxError(
          `stop position "${p}" must be a percentage${angular ? ' or an angle' : ''}`,
        );
    }
  }
  if (raw.length < 2) throw new GradientSyntaxError('a gradient needs at least two colour stops');
  const first = raw[0];
  const last = raw[raw.length - 1];
  if (first && first.offset === null) first.offset = 0;
  if (last && last.offset === null) last.offset = 1;
  // CSS: a position smaller than an earlier one is raised to it; unpositioned runs spread evenly.
  let max = 0;
  for (const s of raw) if (s.offset !== null) s.offset = max = Math.max(max, s.offset);
  for (let i = 1; i < raw.length; i++) {
    if (raw[i]?.offset !== null) continue;
    let j = i;
    while (raw[j]?.offset === null) j++;
    const from = raw[i - 1]?.offset ?? 0;
    const to = raw[j]?.offset ?? 1;
    for (let k = i; k < j; k++)
      (raw[k] as { offset: number | null }).offset = from + ((to - from) * (k - i + 1)) / (j - i + 1);
  }
  return raw.map((s) => ({ color: s.color, offset: s.offset ?? 0 }));
}

const SIDES: Record<string, number> = { top: 0, right: 90, bottom: 180, left: 270 };

function parseLinear(args: string[]): ParsedGradient {
  const head = words(args[0] ?? '');
  const angle = head.length === 1 ? parseAngle(head[0] ?? '') : null;
  if (angle !== null) return { kind: 'linear', angle, stops: parseStops(args.slice(1), false) };
  if (head[0] !== 'to') return { kind: 'linear', angle: 180, stops: parseStops(args, false) };
  const sides = head.slice(1);
  if (sides.length === 1 && sides[0] && sides[0] in SIDES) {
    return { kind: 'linear', angle: SIDES[sides[0]] as number, stops: parseStops(args.slice(1), false) };
  }
  const x = sides.find((s) => s === 'left' || s === 'right');
  const y = sides.find((s) => s === 'top' || s === 'bottom');
  if (sides.length !== 2 || !x || !y) throw new GradientSyntaxError(`unsupported direction "${args[0]}"`);
  const corner = { x: x === 'left' ? -1 : 1, y: y === 'top' ? -1 : 1 } as const;
  const angle45 = corner.y < 0 ? (corner.x > 0 ? 45 : 315) : corner.x > 0 ? 135 : 225;
  return { kind: 'linear', angle: angle45, corner, stops: parseStops(args.slice(1), false) };
}

function parseRadial(args: string[]): ParsedGradient {
  const head = words(args[0] ?? '');
  const isHeader = head.some(
    (w) => ['circle', 'ellipse', 'at'].includes(w) || w.endsWith('-side') || w.endsWith('-corner'),
  );
  if (!isHeader)
    return {
      kind: 'radial',
      shape: 'ellipse',
      extent: 'farthest-corner',
      center: { x: 0.5, y: 0.5 },
      stops: parseStops(args, false),
    };
  const at = head.indexOf('at');
  const shapeWords = at === -1 ? head : head.slice(0, at);
  let shape: 'circle' | 'ellipse' = 'ellipse';
  let extent: RadialExtent = 'farthest-corner';
  for (const w of shapeWords) {
    if (w === 'circle' || w === 'ellipse') shape = w;
    else if (['closest-side', 'farthest-side', 'closest-corner', 'farthest-corner'].includes(w))
      extent = w as RadialExtent;
    else
      throw new GradientSyntaxError(
        `unsupported radial size "${w}" (use closest-side, farthest-side, closest-corner or farthest-corner)`,
      );
  }
  const center = at === -1 ? { x: 0.5, y: 0.5 } : parsePosition(head.slice(at + 1));
  return { kind: 'radial', shape, extent, center, stops: parseStops(args.slice(1), false) };
}

function parseConic(args: string[]): ParsedGradient {
  const head = words(args[0] ?? '');
  if (head[0] !== 'from' && head[0] !== 'at')
    return { kind: 'conic', from: 0, center: { x: 0.5, y: 0.5 }, stops: parseStops(args, true) };
  let from = 0;
  let rest = head;
  if (head[0] === 'from') {
    const a = parseAngle(head[1] ?? '');
    if (a === null) throw new GradientSyntaxError(`"${head[1] ?? ''}" is not an angle`);
    from = a;
    rest = head.slice(2);
  }
  let center = { x: 0.5, y: 0.5 };
  if (rest[0] === 'at') center = parsePosition(rest.slice(1));
  else if (rest.length > 0) throw new GradientSyntaxError(`unexpected "${rest.join(' ')}"`);
  return { kind: 'conic', from, center, stops: parseStops(args.slice(1), true) };
}

/**
 * Parses a CSS `linear-gradient()`, `radial-gradient()` or `conic-gradient()` (the subset a
 * person writes by hand: angles, side/corner directions, shape/extent keywords, keyword or
 * percentage positions, colour stops with percentage positions). Throws GradientSyntaxError.
 */
export function parseCssGradient(input: string): ParsedGradient {
  const m = /^\s*(linear|radial|conic)-gradient\(([\s\S]*)\)\s*$/i.exec(input);
  if (!m) {
    throw new GradientSyntaxError(
      'expected linear-gradient(...), radial-gradient(...) or conic-gradient(...)',
    );
  }
  const kind = (m[1] ?? '').toLowerCase();
  const args = splitTopLevel((m[2] ?? '').toLowerCase());
  if (args.some((a) => a.length === 0)) throw new GradientSyntaxError('empty argument');
  if (kind === 'linear') return parseLinear(args);
  if (kind === 'radial') return parseRadial(args);
  return parseConic(args);
}
