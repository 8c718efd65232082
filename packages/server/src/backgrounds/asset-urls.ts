import type { BackgroundAsset } from './catalogue.ts';
import type { BackgroundTheme } from './palettes.ts';
import { RENDERER_VERSION } from './render-background.ts';

/** Default size of `image_url`: a 16:10 canvas large enough for a 2x capture. */
export const FULL_SIZE = { width: 2560, height: 1600 } as const;
/** Size of `thumbnail_url` (webp). */
export const THUMBNAIL_SIZE = { width: 480, height: 300 } as const;
/** Size of a pack cover (webp): a 2x2 mosaic of its first assets. */
export const COVER_SIZE = { width: 960, height: 600 } as const;

/**
 * Public URLs of the `/cdn/bg/...` routes. `v` carries the renderer version so immutable caches
 * fetch anew when the drawings change.
 */
export function createBackgroundUrls(publicUrl: string) {
  const base = `${publicUrl.replace(/\/+$/, '')}/cdn/bg`;
  const v = `v=${RENDERER_VERSION}`;
  return {
    image: (asset: BackgroundAsset) => `${base}/${asset.pack}/${asset.slug}/image.${asset.format}?${v}`,
    thumbnail: (asset: BackgroundAsset) => `${base}/${asset.pack}/${asset.slug}/thumbnail.webp?${v}`,
    cover: (pack: string, theme: BackgroundTheme) => `${base}/${pack}/cover-${theme}.webp?${v}`,
  };
}
export type BackgroundUrls = ReturnType<typeof createBackgroundUrls>;
