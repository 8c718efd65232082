/**
 * Uncompressed pixels as a decoder hands them over: RGB or RGBA, straight alpha (a screenshot or
 * a background image before compose).
 */
export interface RawPixels {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
  /**
   * Whether every alpha value is 255, when the producer knows (a consumer then skips its own
   * scan: the encoder drops the alpha channel, the raster renderer copies the screenshot row by
   * row). Unset: not known; RGB (3 channels) is opaque.
   */
  opaque?: boolean;
}

/**
 * Uncompressed, straight-alpha RGBA pixels: what the compose steps pass between each other and
 * hand to encode. A shared data type, not a stage, so every stage may import it.
 */
export interface RawImage extends RawPixels {
  channels: 4;
}

/** Whether every alpha value of straight RGBA `pixels` is 255 (stops at the first that is not). */
export function isOpaque(pixels: Uint8Array): boolean {
  for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 255) return false;
  return true;
}
