import { DEVICES, type Device } from '@vitrine/contract';
import sharp from 'sharp';
import type { RawPixels } from '../../image/raw-image.ts';
import { type ComposeCache, renderRaster } from '../renderers/raster/render-raster.ts';
import { buildScene } from '../scene.ts';
import type { ResolvedStyle } from '../style-types.ts';
import type { FontCatalogue } from '../text/font-catalogue.ts';
import { FRAME_CATALOGUE } from './frame-catalogue.ts';

/** The box a thumbnail fits in, in pixels. */
export const THUMBNAIL_BOX = { width: 320, height: 320 } as const;

/** The stand-in page's pixels per CSS px: a quarter size is plenty for a 320 px thumbnail. */
const PAGE_DPR = 0.25;

type Rgb = readonly [number, number, number];

/**
 * A plain stand-in page of `width` x `height` pixels, drawn here (no capture): a white header
 * with a hairline, an indigo hero block and three grey cards on a light page, so a thumbnail
 * shows the screen without borrowing anyone's site.
 */
export function standInPage(width: number, height: number): RawPixels {
  const data = Buffer.alloc(width * height * 3);
  const fill = (x0: number, y0: number, x1: number, y1: number, [r, g, b]: Rgb) => {
    for (let y = Math.max(0, Math.round(y0)); y < Math.min(height, Math.round(y1)); y++) {
      for (let x = Math.max(0, Math.round(x0)); x < Math.min(width, Math.round(x1)); x++) {
        const i = (y * width + x) * 3;
        data[i] = r;
        data[i + 1] = g;
        data[i + 2] = b;
      }
    }
  };
  const header = Math.max(4, Math.round(height * 0.08));
  const m = Math.max(2, Math.round(width * 0.06));
  fill(0, 0, width, height, [248, 250, 252]);
  fill(0, 0, width, header, [255, 255, 255]);
  fill(0, header - 1, width, header, [226, 232, 240]);
  fill(m, header * 0.3, m + width * 0.18, header * 0.7, [99, 102, 241]);
  fill(m, header + m, width - m, header + m + height * 0.22, [99, 102, 241]);
  const cardsTop = header + 2 * m + height * 0.22;
  const cardW = (width - 4 * m) / 3;
  for (let i = 0; i < 3; i++) {
    const x = m + i * (cardW + m);
    fill(x, cardsTop, x + cardW, cardsTop + height * 0.16, [226, 232, 240]);
  }
  fill(m, cardsTop + height * 0.16 + m, width - m, height - m, [241, 245, 249]);
  return { data, width, height, channels: 3 };
}

/** What thumbnails are drawn with: the compose stage's own fonts and cache. */
export interface DeviceThumbnailDeps {
  fonts: () => Promise<FontCatalogue>;
  cache: ComposeCache;
  /**
   * The look of a thumbnail, resolved by the capture service's resolver (compose resolves no
   * request): `device` in `finish` on a transparent canvas of THUMBNAIL_BOX.
   */
  lookOf(device: Device, finish: string): ResolvedStyle;
}

export interface DeviceThumbnails {
  /** The PNG of `device` in its named `finish`, or null for a name the device does not have. */
  png(device: Device, finish: string): Promise<Buffer | null>;
}

/**
 * Thumbnails of the frame catalogue: each device in each named finish, drawn by the raster
 * renderer on a transparent canvas around the stand-in page, once, then kept in memory (16
 * devices by at most 5 finishes of about 30 KB each).
 */
export function createDeviceThumbnails(deps: DeviceThumbnailDeps): DeviceThumbnails {
  const drawn = new Map<string, Promise<Buffer>>();
  let line: Promise<void> = Promise.resolve();
  const draw = async (device: Device, finish: string): Promise<Buffer> => {
    const spec = FRAME_CATALOGUE[device];
    const page = spec.fixedScreen ? spec.viewport : { width: 1280, height: 800 };
    const input = standInPage(Math.round(page.width * PAGE_DPR), Math.round(page.height * PAGE_DPR));
    const fonts = await deps.fonts();
    const style = deps.lookOf(device, finish);
    const scene = buildScene(
      style,
      {
        width: input.width,
        height: input.height,
        dpr: PAGE_DPR,
        url: 'https://example.com/',
        title: 'Example',
        topColor: { r: 255, g: 255, b: 255, a: 1 },
      },
      { measurer: fonts.measurer },
    );
    const image = await renderRaster(scene, input, { fonts, cache: deps.cache });
    return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } })
      .png({ compressionLevel: 9 })
      .toBuffer();
  };
  return {
    png(device, finish) {
      if (!DEVICES.includes(device) || !FRAME_CATALOGUE[device].finishes.includes(finish)) {
        return Promise.resolve(null);
      }
      const key = `${device}/${finish}`;
      let png = drawn.get(key);
      if (!png) {
        // One drawing at a time: a page of 60 thumbnails must not queue 60 renders at once.
        png = line.then(() => draw(device, finish));
        line = png.then(
          () => undefined,
          () => undefined,
        );
        // A failed drawing is not kept: the next request tries again.
        png.catch(() => drawn.delete(key));
        drawn.set(key, png);
      }
      return png;
    },
  };
}
