import { Resvg } from '@resvg/resvg-js';
import type { SceneDevice } from '../../scene-types.ts';
import { blendPixel, clip, type RawImage } from './pixels.ts';

/** Anything that can hold rasterised frames between renders (see createComposeCache). */
export interface FrameCache {
  get(key: string): Promise<RawImage> | undefined;
  set(key: string, value: Promise<RawImage>): void;
}

/** Rasterises a device's SVG at its own size (straight alpha RGBA). */
export async function rasterizeDeviceSvg(svg: string): Promise<RawImage> {
  const rendered = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render();
  const src = rendered.pixels;
  const data = Buffer.from(src);
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3] as number;
    if (a === 0 || a === 255) continue;
    const k = 255 / a;
    data[i] = Math.min(255, (data[i] as number) * k);
    data[i + 1] = Math.min(255, (data[i + 1] as number) * k);
    data[i + 2] = Math.min(255, (data[i + 2] as number) * k);
  }
  return { data, width: rendered.width, height: rendered.height, channels: 4 };
}

/**
 * Draws the device frame over the screenshot: its SVG rasterised once per device, finish and
 * size (cached), then blended at the device's rect, clipped to the canvas (cropped layouts run
 * off an edge).
 */
export async function drawDevice(canvas: RawImage, device: SceneDevice, cache: FrameCache): Promise<void> {
  const key = `device:${device.svgKey}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = rasterizeDeviceSvg(device.svg);
    cache.set(key, pending);
  }
  const frame = await pending;
  const { x: ox, y: oy } = device.rect;
  const { x0, y0, x1, y1 } = clip(canvas, { x: ox, y: oy, width: frame.width, height: frame.height });
  const src = frame.data;
  const dst = canvas.data;
  for (let y = y0; y < y1; y++) {
    let s = ((y - oy) * frame.width + (x0 - ox)) * 4;
    let d = (y * canvas.width + x0) * 4;
    for (let x = x0; x < x1; x++, s += 4, d += 4) {
      const a = src[s + 3] as number;
      if (a === 0) continue;
      if (a === 255) {
        dst[d] = src[s] as number;
        dst[d + 1] = src[s + 1] as number;
        dst[d + 2] = src[s + 2] as number;
        dst[d + 3] = 255;
      } else blendPixel(dst, d, src[s] as number, src[s + 1] as number, src[s + 2] as number, a / 255);
    }
  }
}
