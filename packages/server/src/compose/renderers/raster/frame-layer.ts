import { apply, corners, type Point, translate } from '../../camera/camera-math.ts';
import { warpOnto } from '../../effects/homography-warp.ts';
import { blurLayer } from '../../effects/layer-blur.ts';
import { warpMaskOnto } from '../../effects/mask-warp.ts';
import type { Scene, SceneLayer, SceneShadow } from '../../scene-types.ts';
import type { RawImage } from './pixels.ts';
import { type MaskCache, renderShadowMask } from './shadow.ts';

/**
 * Target px between the samples of a warped shadow of blur `sigma` (px): a power of two at most
 * sigma / 4 (and 8). Bilinear then reconstructs the soft edge within 2 % of the shadow's
 * opacity even where the camera shrinks a side to 0.6 (measured: at most 2 levels of 8-bit
 * colour for the presets), at 1 / step^2 of the per-pixel warp's cost.
 */
export function shadowStep(sigma: number): number {
  let step = 1;
  while (step < 8 && step * 2 <= sigma / 4) step *= 2;
  return step;
}

/**
 * A shadow drawn through its camera homography onto the background plane: the flat blurred
 * rounded-rect mask (cached like the flat shadows), warped on a grid coarser than the canvas
 * where the blur allows (see shadowStep). Nothing is cut out under the frame (it no longer sits
 * exactly over the shadow); only `hidden`, where the opaque layer will be drawn anyway, is skipped.
 */
export async function drawWarpedShadow(
  canvas: RawImage,
  s: SceneShadow,
  cache: MaskCache,
  hidden: Point[] | null = null,
): Promise<void> {
  if (!s.matrix) return;
  const key = `shadow:${Math.round(s.rect.width)}x${Math.round(s.rect.height)}:${s.radius.toFixed(1)}:${s.sigma.toFixed(2)}`;
  let pending = cache.get(key);
  if (!pending) {
    pending = renderShadowMask(s.rect.width, s.rect.height, s.radius, s.sigma);
    cache.set(key, pending);
  }
  const mask = await pending;
  warpMaskOnto(
    canvas,
    { ...mask, x: Math.round(s.rect.x) - mask.margin, y: Math.round(s.rect.y) - mask.margin },
    s.matrix,
    s.color,
    shadowStep(s.sigma),
    hidden,
  );
}

/**
 * Where the frame layer will cover the canvas opaquely, as a convex quad on the canvas, or
 * null: the screenshot's rect less its corner radius and the reach of the depth blur (a level
 * is opaque where everything within its kernel is), when the flat layer is opaque all over it,
 * through the camera. A shadow pixel in there is never seen, so it need not be drawn.
 */
export function opaqueCore(scene: Scene, layer: SceneLayer, flat: RawImage): Point[] | null {
  const s = scene.screenshot;
  const radius = s.corners ? Math.max(...s.corners) : s.radius;
  const inset = Math.ceil(radius + 3 * (layer.depthBlur?.sigmas.at(-1) ?? 0)) + 1;
  const x0 = Math.ceil(s.rect.x - layer.rect.x) + inset;
  const y0 = Math.ceil(s.rect.y - layer.rect.y) + inset;
  const x1 = Math.min(flat.width, Math.floor(s.rect.x + s.rect.width - layer.rect.x) - inset);
  const y1 = Math.min(flat.height, Math.floor(s.rect.y + s.rect.height - layer.rect.y) - inset);
  if (x0 < 0 || y0 < 0 || x1 - x0 < 4 || y1 - y0 < 4) return null;
  for (let y = y0; y < y1; y++)
    for (let i = (y * flat.width + x0) * 4 + 3, end = (y * flat.width + x1) * 4; i < end; i += 4)
      if (flat.data[i] !== 255) return null;
  const m = layer.camera?.matrix ?? translate(0, 0);
  return corners({ x: x0 + layer.rect.x, y: y0 + layer.rect.y, width: x1 - x0, height: y1 - y0 }).map((p) =>
    apply(m, p.x, p.y),
  );
}

/**
 * Draws the rendered flat frame layer (straight RGBA of `layer.rect`) onto the canvas through
 * the camera warp (or a plain placement), with its depth blur: the levels are blurred on the
 * flat layer, so the mask follows the frame, and blended per canvas pixel by the warp.
 */
export async function drawFrameLayer(canvas: RawImage, flat: RawImage, layer: SceneLayer): Promise<void> {
  const { x, y } = layer.rect;
  const blur = layer.depthBlur
    ? await blurLayer({ data: flat.data, width: flat.width, height: flat.height, x, y }, layer.depthBlur)
    : null;
  warpOnto(canvas, { ...flat, x, y }, layer.camera?.matrix ?? translate(0, 0), blur);
}
