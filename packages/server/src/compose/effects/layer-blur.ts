import sharp from 'sharp';
import { evalStops, levelStops, maskParam, type SceneDepthBlur } from './depth-blur-mask.ts';
import type { PremulLayer } from './homography-warp.ts';

/**
 * One blur level of a straight-alpha RGBA layer: downscaled and blurred in one sharp pipeline
 * (sharp resizes before it blurs, both on premultiplied alpha), scaled back up in a second.
 * A blurred image has no high frequencies, so a quarter of the pixels loses nothing visible.
 */
async function blurred(data: Buffer, width: number, height: number, sigma: number): Promise<Buffer> {
  const f = sigma >= 10 ? 4 : sigma >= 4 ? 2 : 1;
  const raw = { raw: { width, height, channels: 4 as const } };
  if (f === 1) return sharp(data, raw).blur(Math.max(0.3, sigma)).raw().toBuffer();
  const w = Math.max(1, Math.round(width / f));
  const h = Math.max(1, Math.round(height / f));
  const small = await sharp(data, raw)
    .resize(w, h, { fit: 'fill', kernel: 'linear' })
    .blur(Math.max(0.3, sigma / f))
    .raw()
    .toBuffer();
  return sharp(small, { raw: { width: w, height: h, channels: 4 } })
    .resize(width, height, { fit: 'fill', kernel: 'cubic' })
    .raw()
    .toBuffer();
}

/**
 * Depth blur of the flat frame layer (straight-alpha RGBA at `x`, `y`): every level blurred,
 * then stacked over the sharp layer source-over in premultiplied alpha, level i weighted by
 * its mask profile along the plan's gradient. Blurring the layer alone (never the background)
 * lets the frame's edge fade into whatever is under it, with no dark or light halo.
 */
export async function blurLayer(
  src: { data: Buffer; width: number; height: number; x: number; y: number },
  plan: SceneDepthBlur,
): Promise<PremulLayer> {
  const { width, height } = src;
  const levels = await Promise.all(plan.sigmas.map((s) => blurred(src.data, width, height, s)));
  const out = new Float32Array(width * height * 4);
  const t = new Float32Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      t[y * width + x] = maskParam(plan.geometry, src.x + x + 0.5, src.y + y + 0.5);
  const put = (buf: Buffer, weight: (p: number) => number) => {
    for (let p = 0, i = 0; p < width * height; p++, i += 4) {
      const wgt = weight(p);
      if (wgt <= 0) continue;
      const a = ((buf[i + 3] as number) / 255) * wgt;
      if (a <= 0) continue;
      const k = 1 - a;
      out[i] = (buf[i] as number) * a + (out[i] as number) * k;
      out[i + 1] = (buf[i + 1] as number) * a + (out[i + 1] as number) * k;
      out[i + 2] = (buf[i + 2] as number) * a + (out[i + 2] as number) * k;
      out[i + 3] = 255 * a + (out[i + 3] as number) * k;
    }
  };
  put(src.data, () => 1);
  levels.forEach((buf, i) => {
    const stops = levelStops(plan.stops, levels.length, i + 1);
    put(buf, (p) => evalStops(stops, t[p] as number));
  });
  return { data: out, width, height, x: src.x, y: src.y };
}
