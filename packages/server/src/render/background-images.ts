import sharp from 'sharp';
import type { BackgroundCatalogue } from '../backgrounds/catalogue.ts';
import { resolveBackgroundReference } from '../backgrounds/catalogue.ts';
import type { BackgroundRenderCache } from '../backgrounds/render-cache.ts';
import type { Scene } from '../compose/index.ts';
import { AppError } from '../errors/app-error.ts';
import type { RawImage } from '../image/raw-image.ts';
import type { GuardedFetch } from '../netpolicy/guarded-fetch.ts';
import { isTargetUnreachable } from '../netpolicy/target-unreachable.ts';

/** Limits of a custom background image (docs/api-decisions.md section 4). */
export const BACKGROUND_IMAGE_LIMITS = {
  maxBytes: 15 * 1024 * 1024,
  maxPixels: 40_000_000,
  timeoutMs: 15_000,
};

const RASTER_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'tiff', 'heif']);

function fetchFailed(message: string, cause?: unknown): AppError {
  return new AppError('capture_failed', message, { details: { reason: 'image_fetch_failed' }, cause });
}

export interface BackgroundImageDeps {
  catalogue: BackgroundCatalogue;
  renders: BackgroundRenderCache;
  guardedFetch: GuardedFetch;
}

/**
 * Supplies the image behind `background` (a catalogue asset, rendered at exactly the canvas size
 * and dpr, never upscaled) or `background_image_url` (fetched through the network policy, raster
 * only, capped in bytes and pixels). Failures of a custom image are 422 `image_fetch_failed`.
 */
export function createBackgroundImages(deps: BackgroundImageDeps) {
  async function fromCatalogue(ref: string, scene: Scene): Promise<RawImage> {
    const asset = resolveBackgroundReference(ref, deps.catalogue);
    const { width, height, dpr } = scene.canvas;
    const rendered = await deps.renders.render(asset, { width, height, format: 'png', scale: dpr });
    return decode(rendered.data);
  }

  async function fromUrl(url: string, signal: AbortSignal): Promise<RawImage> {
    let response: Awaited<ReturnType<GuardedFetch>>;
    try {
      response = await deps.guardedFetch(url, {
        maxBytes: BACKGROUND_IMAGE_LIMITS.maxBytes,
        timeoutMs: BACKGROUND_IMAGE_LIMITS.timeoutMs,
        signal,
        field: 'background_image_url',
      });
    } catch (error) {
      if (error instanceof AppError && error.code === 'target_not_allowed') throw error;
      if (error instanceof AppError && error.details?.reason === 'too_large') {
        throw fetchFailed('background_image_url is larger than 15 MiB', error);
      }
      if (isTargetUnreachable(error) || error instanceof AppError) {
        throw fetchFailed('background_image_url could not be fetched', error);
      }
      throw error;
    }
    if (response.status < 200 || response.status > 299) {
      throw fetchFailed(`background_image_url answered HTTP ${response.status}`);
    }
    let format: string | undefined;
    let pixels = 0;
    try {
      const meta = await sharp(response.body, { limitInputPixels: false }).metadata();
      format = meta.format;
      pixels = (meta.width ?? 0) * (meta.height ?? 0);
    } catch (error) {
      throw fetchFailed('background_image_url is not an image', error);
    }
    if (!format || !RASTER_FORMATS.has(format)) {
      throw fetchFailed(
        'background_image_url must be a raster image (PNG, JPEG, WebP, GIF, AVIF); SVG is refused',
      );
    }
    if (pixels > BACKGROUND_IMAGE_LIMITS.maxPixels) {
      throw fetchFailed('background_image_url has more than 40 megapixels');
    }
    return decode(response.body);
  }

  return {
    /** Checks a catalogue reference before any work (400 naming `background`). */
    validateReference(ref: string): void {
      resolveBackgroundReference(ref, deps.catalogue);
    },
    /** The compose stage's BackgroundImageLoader. */
    async load(scene: Scene, signal: AbortSignal): Promise<RawImage | undefined> {
      const bg = scene.background;
      if (bg.kind !== 'image') return undefined;
      return bg.source.type === 'catalogue'
        ? fromCatalogue(bg.source.ref, scene)
        : fromUrl(bg.source.url, signal);
    },
  };
}

export type BackgroundImages = ReturnType<typeof createBackgroundImages>;

async function decode(encoded: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(encoded, {
    limitInputPixels: BACKGROUND_IMAGE_LIMITS.maxPixels,
    animated: false,
  })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}
