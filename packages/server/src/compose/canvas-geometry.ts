import type { AspectRatio } from '@vitrine/contract';
import type { Rect } from './scene-types.ts';

/** `16:9` -> [16, 9]; `auto` -> null. */
export function ratioParts(ratio: AspectRatio): [number, number] | null {
  if (ratio === 'auto') return null;
  const [a, b] = ratio.split(':').map(Number);
  return a && b ? [a, b] : null;
}

/**
 * The smallest canvas of exactly `ratio` (integer multiples of its terms, so the pixel ratio is
 * exact) that contains width x height. `auto` keeps the size.
 */
export function expandToRatio(
  width: number,
  height: number,
  ratio: AspectRatio,
): { width: number; height: number } {
  const parts = ratioParts(ratio);
  if (!parts) return { width: Math.ceil(width), height: Math.ceil(height) };
  const [a, b] = parts;
  const n = Math.ceil(Math.max(width / a, height / b) - 1e-9);
  return { width: n * a, height: n * b };
}

/** Height for a given width at `ratio` (exact when the width is a multiple of its first term). */
export function heightForWidth(width: number, ratio: AspectRatio, fallback: number): number {
  const parts = ratioParts(ratio);
  return parts ? Math.round((width * parts[1]) / parts[0]) : fallback;
}

/**
 * The part of a capture kept by `frame_ratio`: full width with the top kept when the page is too
 * tall (a page's header is what people recognise), centred horizontally when too wide.
 */
export function cropToRatio(width: number, height: number, ratio: AspectRatio): Rect {
  const parts = ratioParts(ratio);
  if (!parts) return { x: 0, y: 0, width, height };
  const target = parts[0] / parts[1];
  if (width / height > target) {
    const w = Math.max(1, Math.round(height * target));
    return { x: Math.floor((width - w) / 2), y: 0, width: w, height };
  }
  return { x: 0, y: 0, width, height: Math.max(1, Math.round(width / target)) };
}

/** Multiplies a rect by `s`, snapping to whole pixels (edges rounded, so adjacent rects stay adjacent). */
export function scaleRect(r: Rect, s: number): Rect {
  const x = Math.round(r.x * s);
  const y = Math.round(r.y * s);
  return { x, y, width: Math.round((r.x + r.width) * s) - x, height: Math.round((r.y + r.height) * s) - y };
}

/** The rect grown by `d` on every side (negative shrinks, never below zero size). */
export function outsetRect(r: Rect, d: number): Rect {
  const width = Math.max(0, r.width + 2 * d);
  const height = Math.max(0, r.height + 2 * d);
  return { x: r.x + (r.width - width) / 2, y: r.y + (r.height - height) / 2, width, height };
}
