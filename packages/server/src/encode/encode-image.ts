import { promisify } from 'node:util';
import { deflateRaw } from 'node:zlib';
import type { OutputFormat } from '@vitrine/contract';
import sharp, { type Sharp } from 'sharp';
import { AppError } from '../errors/app-error.ts';
import { isOpaque, type RawImage } from '../image/raw-image.ts';
import { type CropPosition, resolveOutputSize } from './output-size.ts';

/** An already encoded image (PNG, JPEG, WebP...), e.g. the screenshot Chromium produced. */
export type EncodedInput = Buffer | Uint8Array;

export interface EncodeOptions {
  format: OutputFormat;
  /** 1..100, WebP and JPEG only (PNG is lossless). Defaults: {@link DEFAULT_QUALITY}. */
  quality?: number;
  /** Output size; see {@link resolveOutputSize} for the fit rule. */
  width?: number;
  height?: number;
  /** What a cover crop keeps: `centre` (default, composed canvases) or `top` (page captures). */
  position?: CropPosition;
  /** JPEG only: the colour transparent pixels are flattened onto. Default white. */
  background?: string;
  /** Inputs with more pixels are refused (`capture_failed`, reason `too_large`). */
  maxInputPixels?: number;
}

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
  format: OutputFormat;
  contentType: string;
}

/** MIME type of each output format. */
export const CONTENT_TYPES: Record<OutputFormat, string> = {
  png: 'image/png',
  webp: 'image/webp',
  jpg: 'image/jpeg',
  avif: 'image/avif',
};

/** Quality used when the request gives none. */
export const DEFAULT_QUALITY = { webp: 90, jpg: 90, avif: 60 } as const;

/**
 * AVIF effort (0-9): 2 encodes a 1440x900 screenshot in a fraction of what the default 4 takes,
 * for files a few per cent larger (docs/decisions.md, issue 40).
 */
const AVIF_EFFORT = 2;

/** sharp's own default (16383 x 16383): large enough for a full-page capture, refuses bombs. */
export const DEFAULT_MAX_INPUT_PIXELS = 268_402_689;

/** Encoder settings chosen for speed at screenshot sizes (performance.md). */
const PNG_OPTIONS = { compressionLevel: 6, adaptiveFiltering: false, palette: false } as const;
/**
 * Photographs, video stills and noise compress little whatever deflate tries: on those, level 4
 * encodes a quarter to a third faster than 6 for files 0.4-4.4 % larger, where on flat pages
 * (text, UI, gradients) level 6 is fast anyway and saves 5-16 % (docs/decisions.md, "PNG level
 * by content").
 */
const PHOTOGRAPHIC_PNG_LEVEL = 4;
/**
 * A flat image this large (a full page, a canvas at device scale 2) is written at level 5: on the
 * 10,000 px bench page (14.4 MP) 150-160 ms against 170-220 ms at 6, for a file 4.3 % larger
 * (level 4 would be 15.6 % larger). Below it level 6 costs 8-40 ms, and stays.
 */
const LARGE_IMAGE = { pixels: 4_000_000, pngLevel: 5 } as const;
/**
 * What tells a photographic image: a deflate at level 1 of every 16th row of raw pixels above
 * this many bytes per pixel, or an encoded PNG input (Chromium's fast PNG of a page, level 1 with
 * row filters) of this many bytes per pixel. Set on the bench pages; the real templates not used
 * for it fall on the same sides (the same section).
 */
export const PHOTOGRAPHIC_BYTES_PER_PIXEL = { sampledRaw: 0.6, encodedInput: 0.5 } as const;
const SAMPLE_EVERY_ROWS = 16;
const deflateRawAsync = promisify(deflateRaw);
const WEBP_EFFORT = 4;

/**
 * Whether an image is photographic (see PHOTOGRAPHIC_BYTES_PER_PIXEL): a sample of its rows
 * deflated at level 1 (about 1-4 ms for a 1.6 MP canvas, on libuv's pool so the event loop stays
 * free for the other requests), or an encoded input's own weight.
 */
export async function looksPhotographic(
  input: RawImage | EncodedInput,
  size: { width: number; height: number },
): Promise<boolean> {
  if (!isRaw(input)) {
    return input.length / (size.width * size.height) >= PHOTOGRAPHIC_BYTES_PER_PIXEL.encodedInput;
  }
  const rowBytes = input.width * input.channels;
  const rows: Buffer[] = [];
  for (let y = 0; y < input.height; y += SAMPLE_EVERY_ROWS) {
    rows.push(input.data.subarray(y * rowBytes, (y + 1) * rowBytes));
  }
  if (rows.length === 0) return false;
  const sample = await deflateRawAsync(Buffer.concat(rows), { level: 1 });
  return sample.length / (rows.length * input.width) >= PHOTOGRAPHIC_BYTES_PER_PIXEL.sampledRaw;
}

function isRaw(input: RawImage | EncodedInput): input is RawImage {
  return !Buffer.isBuffer(input) && !(input instanceof Uint8Array);
}

function openInput(input: RawImage | EncodedInput, maxInputPixels: number): Sharp {
  if (!isRaw(input)) return sharp(input, { limitInputPixels: maxInputPixels });
  const { data, width, height, channels } = input;
  if (data.length !== width * height * channels) {
    throw new AppError('internal_error', 'Raw image buffer does not match its size', {
      cause: new Error(`raw buffer of ${data.length} bytes for ${width}x${height}x${channels}`),
    });
  }
  if (width * height > maxInputPixels) throw tooLarge(width * height, maxInputPixels);
  const image = sharp(data, { raw: { width, height, channels }, limitInputPixels: maxInputPixels });
  // An opaque canvas (any look with a background, usually) loses its alpha channel: its PNG is
  // a fifth faster to encode and a little smaller. The check stops at the first see-through
  // pixel, the top-left corner of most canvases that are not opaque.
  return (input.opaque ?? isOpaque(data)) ? image.removeAlpha() : image;
}

function tooLarge(pixels: number | undefined, max: number, cause?: unknown): AppError {
  return new AppError('capture_failed', `The image is too large to encode (more than ${max} pixels)`, {
    details: { reason: 'too_large', ...(pixels === undefined ? {} : { pixels }) },
    cause,
  });
}

async function sourceSize(
  input: RawImage | EncodedInput,
  image: Sharp,
): Promise<{ width: number; height: number }> {
  if (isRaw(input)) return { width: input.width, height: input.height };
  const meta = await image.metadata();
  if (!meta.width || !meta.height) throw new Error('the encoded input has no dimensions');
  // Orientation 5..8 swaps the sides once autoOrient() applies it.
  const swapped = (meta.orientation ?? 1) >= 5;
  return swapped ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

/**
 * Encodes an image to PNG, WebP, JPEG or AVIF in a single sharp pipeline: decode (or raw pixels),
 * resize to the output size, encode once. Never a PNG-to-PNG round trip.
 *
 * - PNG: compression level 6 without adaptive filtering (about 30 ms at 1.3 MP), 4 for a
 *   photographic image (looksPhotographic); `quality` is ignored since PNG is lossless.
 * - WebP: effort 4, quality default 90, alpha kept.
 * - JPEG: quality default 90, chroma 4:4:4 (text in screenshots stays crisp), alpha flattened onto
 *   `background` (white by default).
 * - AVIF: effort 2, quality default 60 (AVIF's 60 looks like JPEG's 90), chroma 4:4:4, alpha kept.
 *
 * Failures are `capture_failed` with reason `too_large` (pixel limit) or `render_failed`.
 */
export async function encodeImage(
  input: RawImage | EncodedInput,
  options: EncodeOptions,
): Promise<EncodedImage> {
  const maxInputPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  try {
    let image = openInput(input, maxInputPixels);
    if (!isRaw(input)) image = image.autoOrient();
    const source = await sourceSize(input, image);
    const target = resolveOutputSize(source, options);
    if (target.width !== source.width || target.height !== source.height) {
      image = image.resize(target.width, target.height, {
        fit: 'cover',
        position: options.position === 'top' ? 'top' : 'centre',
      });
    }
    const photographic = options.format === 'png' && (await looksPhotographic(input, source));
    image = applyFormat(image, options, pngLevel(photographic, target.width * target.height));
    const { data, info } = await image.toBuffer({ resolveWithObject: true });
    return {
      data,
      width: info.width,
      height: info.height,
      format: options.format,
      contentType: CONTENT_TYPES[options.format],
    };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw tooLarge(undefined, maxInputPixels, error);
    }
    throw new AppError('capture_failed', 'The image could not be encoded', {
      details: { reason: 'render_failed' },
      cause: error,
    });
  }
}

/** The PNG level by content and size (PHOTOGRAPHIC_PNG_LEVEL, LARGE_IMAGE). */
export function pngLevel(photographic: boolean, pixels: number): number {
  if (photographic) return PHOTOGRAPHIC_PNG_LEVEL;
  return pixels >= LARGE_IMAGE.pixels ? LARGE_IMAGE.pngLevel : PNG_OPTIONS.compressionLevel;
}

function applyFormat(image: Sharp, options: EncodeOptions, pngCompressionLevel: number): Sharp {
  switch (options.format) {
    case 'png':
      return image.png({ ...PNG_OPTIONS, compressionLevel: pngCompressionLevel });
    case 'webp':
      return image.webp({ quality: options.quality ?? DEFAULT_QUALITY.webp, effort: WEBP_EFFORT });
    case 'jpg':
      return image.flatten({ background: options.background ?? '#ffffff' }).jpeg({
        quality: options.quality ?? DEFAULT_QUALITY.jpg,
        chromaSubsampling: '4:4:4',
        mozjpeg: false,
      });
    case 'avif':
      // 4:4:4 keeps thin coloured text crisp, as for JPEG; alpha is kept.
      return image.avif({
        quality: options.quality ?? DEFAULT_QUALITY.avif,
        effort: AVIF_EFFORT,
        chromaSubsampling: '4:4:4',
      });
  }
}

export type { RawImage };
