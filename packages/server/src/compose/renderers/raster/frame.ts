/**
 * The flat frame drawn under the screenshot in the raster renderer: the solid or glass border
 * band (glass frosts the pixels already on the canvas through sharp), and the inset mat, white or
 * taking the screenshot's edge colour. Also the rectangle shrink the rim shares.
 */
import sharp from 'sharp';
import type { Rect, Scene, SceneFrame } from '../../scene-types.ts';
import { edgeColor } from '../screenshot-fit.ts';
import { fillRoundedRect, type RawImage } from './pixels.ts';

export const shrink = (r: Rect, d: number): Rect => ({
  x: r.x + d,
  y: r.y + d,
  width: r.width - 2 * d,
  height: r.height - 2 * d,
});

/** Border band and inset mat, under the screenshot. Glass frosts the pixels already drawn there. */
export async function drawFrame(
  canvas: RawImage,
  frame: SceneFrame,
  scene: Scene,
  shot: Buffer,
): Promise<void> {
  const { rect, radius, border } = frame;
  const band = border && border.kind !== 'rim' ? border.width : 0;
  const inner = { rect: shrink(rect, band), radius: Math.max(0, radius - band) };
  if (border?.kind === 'solid' && band > 0) fillRoundedRect(canvas, rect, radius, border.color, inner);
  if (border?.kind === 'glass' && band > 0) {
    if (scene.background.kind === 'transparent') fillRoundedRect(canvas, rect, radius, border.color, inner);
    else {
      const r = { left: Math.max(0, rect.x), top: Math.max(0, rect.y) };
      const w = Math.min(canvas.width - r.left, rect.width);
      const h = Math.min(canvas.height - r.top, rect.height);
      const f = 4;
      // Three pipelines: sharp applies one resize per pipeline, and always before the blur.
      const sw = Math.max(1, Math.round(w / f));
      const sh = Math.max(1, Math.round(h / f));
      const small = await sharp(canvas.data, {
        raw: { width: canvas.width, height: canvas.height, channels: 4 },
      })
        .extract({ ...r, width: w, height: h })
        .resize(sw, sh)
        .raw()
        .toBuffer();
      const frosted = await sharp(small, { raw: { width: sw, height: sh, channels: 4 } })
        .blur(Math.max(0.3, (band * 0.9) / f))
        .raw()
        .toBuffer();
      const blurred = await sharp(frosted, { raw: { width: sw, height: sh, channels: 4 } })
        .resize(w, h, { fit: 'fill', kernel: 'cubic' })
        .raw()
        .toBuffer();
      const t = border.color;
      fillRoundedRect(canvas, rect, radius, { ...t, a: 1 }, inner, (i) => {
        const p = i / 4;
        const x = (p % canvas.width) - r.left;
        const y = Math.floor(p / canvas.width) - r.top;
        const j = (y * w + x) * 4;
        return [
          (blurred[j] as number) * (1 - t.a) + t.r * t.a,
          (blurred[j + 1] as number) * (1 - t.a) + t.g * t.a,
          (blurred[j + 2] as number) * (1 - t.a) + t.b * t.a,
        ];
      });
    }
    const hair = Math.max(1, Math.round(scene.canvas.scale));
    fillRoundedRect(
      canvas,
      rect,
      radius,
      { r: 255, g: 255, b: 255, a: 0.55 },
      { rect: shrink(rect, hair), radius: Math.max(0, radius - hair) },
    );
    fillRoundedRect(
      canvas,
      inner.rect,
      inner.radius,
      { r: 255, g: 255, b: 255, a: 0.3 },
      { rect: shrink(inner.rect, hair), radius: Math.max(0, inner.radius - hair) },
    );
  }
  if (frame.fill) {
    const fill =
      frame.fill === 'auto'
        ? edgeColor(shot, scene.screenshot.rect.width, scene.screenshot.rect.height)
        : frame.fill;
    fillRoundedRect(canvas, inner.rect, inner.radius, fill);
  }
}
