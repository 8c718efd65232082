import type { RawImage } from '../../image/raw-image.ts';

/**
 * A straight-alpha RGBA image (as the renderers produce it) positioned at `x`, `y` in its own
 * space: what the warp samples. It premultiplies while it samples, so no premultiplied copy of
 * a layer is ever allocated (every large buffer per render brings the next full GC closer).
 */
export interface StraightLayer {
  data: Uint8Array;
  width: number;
  height: number;
  x: number;
  y: number;
}

/** A straight-alpha RGBA image (the renderers' canvas) as the warps draw onto it. */
export type RgbaTarget = Pick<RawImage, 'data' | 'width' | 'height'>;

/** The target's bytes as clamped: stores round and clamp to 0..255 without a branch. */
export const clamped = (b: Buffer) => new Uint8ClampedArray(b.buffer, b.byteOffset, b.length);

/**
 * Source-over of one premultiplied colour (0..255), `c[0..3]` as r, g, b, a, onto straight-alpha
 * pixel `i`; an opaque destination (the usual background) takes the lerp without a division.
 * The colour comes in an array, not as four number arguments: when a call is not inlined, V8
 * boxes each floating-point argument in a heap object, and once per covered pixel that was
 * most of a tilted render's garbage (docs/decisions.md, "Warp without boxed numbers").
 */
export function overPremul(dst: Uint8ClampedArray, i: number, c: Float64Array): void {
  const a = c[3] as number;
  if (a < 0.25) return;
  const k = 1 - a / 255;
  const d = dst[i + 3] as number;
  if (d === 255) {
    dst[i] = (c[0] as number) + (dst[i] as number) * k;
    dst[i + 1] = (c[1] as number) + (dst[i + 1] as number) * k;
    dst[i + 2] = (c[2] as number) + (dst[i + 2] as number) * k;
    return;
  }
  const da = d * k;
  const oa = a + da;
  const s = da / 255;
  const u = 255 / oa;
  dst[i] = ((c[0] as number) + (dst[i] as number) * s) * u;
  dst[i + 1] = ((c[1] as number) + (dst[i + 1] as number) * s) * u;
  dst[i + 2] = ((c[2] as number) + (dst[i + 2] as number) * s) * u;
  dst[i + 3] = oa;
}
