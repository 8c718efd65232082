/**
 * Uncompressed, straight-alpha RGBA pixels: what the compose steps pass between each other and
 * hand to encode. A shared data type, not a stage, so every stage may import it.
 */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 4;
  /** Every alpha value is 255: the alpha channel may be dropped before encoding (smaller, faster PNG). */
  opaque?: boolean;
}
