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
