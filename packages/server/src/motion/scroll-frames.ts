/**
 * The screen of a scroll video, frame by frame, from one full-page capture: the page (without
 * its pinned parts) is fitted to the screen's size once, so a frame is a run of rows of it,
 * with the pinned parts (fixed headers, sticky bars) drawn where the browser shows them at that
 * scroll position. Pure pixels: no browser, no compose.
 */
import sharp, { type Sharp } from 'sharp';
import { isOpaque, type RawImage } from '../image/raw-image.ts';

/** A pinned part of the page, decoded (device pixels, RGBA with transparency around it). */
export interface DecodedLayer {
  image: RawImage;
  /** CSS px: x and width, its document top at scroll 0. */
  rect: { x: number; top: number; width: number; height: number };
  position: 'fixed' | 'sticky';
  stickTop: number;
  /** Drawn in frames at scroll `y` with `shownFrom < y <= shownUntil` (CSS px). */
  shownFrom: number;
  shownUntil: number;
}

/** The screen of the scene: which capture pixels it shows (`crop`, of one viewport) and at what size. */
export interface ScreenFit {
  crop: { x: number; y: number; width: number; height: number };
  rect: { width: number; height: number };
}

export interface ScrollFrames {
  /**
   * The screen at `scrollY` CSS px (0 < scrollY <= end), `rect` in size, RGBA; `opaque` set
   * (known once per clip, so no frame is scanned for it).
   */
  frameAt(scrollY: number): RawImage;
}

interface FittedLayer {
  image: RawImage;
  source: DecodedLayer;
  /** Fitted px of the layer's left edge within the screen. */
  x: number;
}

async function toRaw(p: Sharp): Promise<RawImage> {
  const { data, info } = await p.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 4 };
}

const open = (img: RawImage) =>
  sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } });

/** Source-over of `top` (straight alpha) onto the opaque-or-not `canvas` at (x, y), clipped. */
function blendOnto(canvas: RawImage, top: RawImage, x: number, y: number): void {
  const x0 = Math.max(0, x);
  const y0 = Math.max(0, y);
  const x1 = Math.min(canvas.width, x + top.width);
  const y1 = Math.min(canvas.height, y + top.height);
  const out = canvas.data;
  const src = top.data;
  for (let row = y0; row < y1; row++) {
    let s = ((row - y) * top.width + (x0 - x)) * 4;
    let d = (row * canvas.width + x0) * 4;
    for (let col = x0; col < x1; col++, s += 4, d += 4) {
      const a = src[s + 3] as number;
      if (a === 0) continue;
      if (a === 255) {
        out[d] = src[s] as number;
        out[d + 1] = src[s + 1] as number;
        out[d + 2] = src[s + 2] as number;
        out[d + 3] = 255;
        continue;
      }
      const k = a / 255;
      const da = (out[d + 3] as number) / 255;
      const oa = k + da * (1 - k);
      for (let c = 0; c < 3; c++) {
        const mixed = ((src[s + c] as number) * k + (out[d + c] as number) * da * (1 - k)) / (oa || 1);
        out[d + c] = Math.round(mixed);
      }
      out[d + 3] = Math.round(oa * 255);
    }
  }
}

/**
 * Prepares the frames of a scroll: `page` is the full-page capture without its pinned parts
 * (device px, `dpr` per CSS px), `layers` the pinned parts, `fit` the screen of the scene.
 */
export async function prepareScrollFrames(
  page: RawImage,
  layers: DecodedLayer[],
  dpr: number,
  fit: ScreenFit,
): Promise<ScrollFrames> {
  const { crop, rect } = fit;
  const sx = rect.width / crop.width;
  const sy = rect.height / crop.height;
  const fittedHeight = Math.max(rect.height, Math.round(page.height * sy));
  let fitted = open(page).extract({ left: crop.x, top: 0, width: crop.width, height: page.height });
  if (sx !== 1 || sy !== 1)
    fitted = fitted.resize(rect.width, fittedHeight, { fit: 'fill', kernel: 'lanczos3' });
  const column = await toRaw(fitted);
  const fittedLayers: FittedLayer[] = [];
  for (const layer of layers) {
    const width = Math.max(1, Math.round(layer.image.width * sx));
    const height = Math.max(1, Math.round(layer.image.height * sy));
    const image =
      width === layer.image.width && height === layer.image.height
        ? layer.image
        : await toRaw(open(layer.image).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }));
    fittedLayers.push({ image, source: layer, x: Math.round((layer.rect.x * dpr - crop.x) * sx) });
  }
  // Checked once for the clip: pinned parts drawn over an opaque page keep it opaque.
  const opaque = isOpaque(column.data);
  const rowBytes = rect.width * 4;
  const lastTop = column.height - rect.height;

  return {
    frameAt(scrollY) {
      const top = Math.min(lastTop, Math.max(0, Math.round((crop.y + scrollY * dpr) * sy)));
      const rows = column.data.subarray(top * rowBytes, (top + rect.height) * rowBytes);
      if (fittedLayers.length === 0)
        return { data: rows, width: rect.width, height: rect.height, channels: 4, opaque };
      const frame: RawImage = {
        data: Buffer.from(rows),
        width: rect.width,
        height: rect.height,
        channels: 4,
        opaque,
      };
      for (const layer of fittedLayers) {
        const { source } = layer;
        if (scrollY <= source.shownFrom || scrollY > source.shownUntil) continue;
        const viewportTop =
          source.position === 'fixed'
            ? source.rect.top
            : Math.max(source.stickTop, source.rect.top - scrollY);
        blendOnto(frame, layer.image, layer.x, Math.round((viewportTop * dpr - crop.y) * sy));
      }
      return frame;
    },
  };
}
