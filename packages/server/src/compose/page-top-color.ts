import type { Rgba } from './css/css-color.ts';

/**
 * Mean colour of the top `rows` pixel rows of a capture, weighted by alpha: what a device's
 * status or menu bar is tinted with, as the OS tints its bar from the content under it. Null
 * when those rows are fully transparent (nothing to match).
 */
export function pageTopColor(
  image: { data: Buffer; width: number; height: number; channels: 3 | 4 },
  rows: number,
): Rgba | null {
  const h = Math.max(0, Math.min(image.height, Math.round(rows)));
  const step = image.channels;
  const sum = [0, 0, 0];
  let weight = 0;
  const d = image.data;
  for (let i = 0, end = h * image.width * step; i < end; i += step) {
    const a = step === 4 ? (d[i + 3] as number) : 255;
    if (a === 0) continue;
    sum[0] = (sum[0] as number) + (d[i] as number) * a;
    sum[1] = (sum[1] as number) + (d[i + 1] as number) * a;
    sum[2] = (sum[2] as number) + (d[i + 2] as number) * a;
    weight += a;
  }
  if (weight === 0) return null;
  const [r, g, b] = sum.map((v) => Math.round(v / weight)) as [number, number, number];
  return { r, g, b, a: 1 };
}

/** Rows sampled for the bar colour: the top 4 CSS px, a page's header before any content row. */
export function pageTopRows(captureDpr: number): number {
  return Math.max(1, Math.round(4 * captureDpr));
}
