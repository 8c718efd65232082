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

/** A run of one row of a device raster: opaque pixels (copied) or partly transparent ones (blended). */
interface Run {
  from: number;
  to: number;
  opaque: boolean;
}

/**
 * The non-transparent runs of each row of a device raster, found once per raster: a device is
 * mostly its transparent screen, and a video draws the same device on every frame, so the
 * draw visits only the bezel's pixels (a fifth of a MacBook's box) and copies its opaque runs.
 */
const runsOf = new WeakMap<RawImage, Run[][]>();

function rowRuns(frame: RawImage): Run[][] {
  const known = runsOf.get(frame);
  if (known) return known;
  const rows: Run[][] = [];
  const src = frame.data;
  for (let y = 0; y < frame.height; y++) {
    const runs: Run[] = [];
    let x = 0;
    while (x < frame.width) {
      const a = src[(y * frame.width + x) * 4 + 3] as number;
      if (a === 0) {
        x++;
        continue;
      }
      const opaque = a === 255;
      const from = x;
      while (x < frame.width) {
        const b = src[(y * frame.width + x) * 4 + 3] as number;
        if (b === 0 || (b === 255) !== opaque) break;
        x++;
      }
      runs.push({ from, to: x, opaque });
    }
    rows.push(runs);
  }
  runsOf.set(frame, rows);
  return rows;
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
  const rows = rowRuns(frame);
  for (let y = y0; y < y1; y++) {
    for (const run of rows[y - oy] ?? []) {
      const from = Math.max(x0, ox + run.from);
      const to = Math.min(x1, ox + run.to);
      if (to <= from) continue;
      const s = ((y - oy) * frame.width + (from - ox)) * 4;
      const d = (y * canvas.width + from) * 4;
      if (run.opaque) {
        src.copy(dst, d, s, s + (to - from) * 4);
        continue;
      }
      for (let i = 0; i < to - from; i++) {
        const k = s + i * 4;
        blendPixel(
          dst,
          d + i * 4,
          src[k] as number,
          src[k + 1] as number,
          src[k + 2] as number,
          (src[k + 3] as number) / 255,
        );
      }
    }
  }
}
