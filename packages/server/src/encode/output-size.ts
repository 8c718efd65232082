import { CAPTURE_LIMITS } from '@vitrine/contract';

/** Which part of the image a cover crop keeps when the aspect ratios differ. */
export type CropPosition = 'centre' | 'top';

export interface Size {
  width: number;
  height: number;
}

/**
 * The size of an encoded image, from the source size and `output.width` / `output.height`.
 *
 * The rule (docs/output.md): the user of a screenshot API asks for a size to put the image in a
 * slot, so a requested side is always honoured exactly, scaling up if needed.
 * - neither given: the source size;
 * - both given: exactly that size; the source is scaled to cover it and cropped (see
 *   {@link CropPosition});
 * - one given: that side exactly, the other from the source's aspect ratio (rounded, at least 1),
 *   capped at the contract's largest output side; when capped the rest is cropped like above.
 */
export function resolveOutputSize(source: Size, requested: { width?: number; height?: number }): Size {
  const max = CAPTURE_LIMITS.outputSide;
  const { width, height } = requested;
  if (width !== undefined && height !== undefined) return { width, height };
  if (width !== undefined) {
    return { width, height: clampSide(Math.round((width * source.height) / source.width), max) };
  }
  if (height !== undefined) {
    return { width: clampSide(Math.round((height * source.width) / source.height), max), height };
  }
  return { width: source.width, height: source.height };
}

function clampSide(value: number, max: number): number {
  return Math.min(max, Math.max(1, value));
}
