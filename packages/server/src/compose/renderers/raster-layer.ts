import { translate } from '../camera/camera-math.ts';
import { premultiply, warpMaskOnto, warpOnto } from '../effects/homography-warp.ts';
import { blurLayer } from '../effects/layer-blur.ts';
import type { Rect, Scene, SceneLayer, SceneShadow } from '../scene-types.ts';
import type { RawImage } from './raster-pixels.ts';
import { type MaskCache, renderShadowMask } from './raster-shadow.ts';

const move = (r: Rect, dx: number, dy: number): Rect => ({ ...r, x: r.x - dx, y: r.y - dy });

/**
 * The frame layer as a scene of its own: the layer rect as the canvas, a transparent
 * background, no shadows, only the texts on the frame, every rect moved into the layer.
 */
export function layerScene(scene: Scene, layer: SceneLayer): Scene {
  const { x, y, width, height } = layer.rect;
  const d = scene.device;
  return {
    ...scene,
    canvas: { ...scene.canvas, width, height },
    background: { kind: 'transparent' },
    shadows: [],
    frame: { ...scene.frame, rect: move(scene.frame.rect, x, y) },
    screenshot: { ...scene.screenshot, rect: move(scene.screenshot.rect, x, y) },
    scrim: scene.scrim ? { ...scene.scrim, rect: move(scene.scrim.rect, x, y) } : null,
    texts: scene.texts.filter((t) => t.onFrame).map((t) => ({ ...t, box: move(t.box, x, y) })),
    device: d
      ? { ...d, rect: move(d.rect, x, y), screen: { ...d.screen, rect: move(d.screen.rect, x, y) } }
      : null,
    layer: null,
  };
}

/**
 * A shadow drawn through its camera homography onto the background plane: the flat blurred
 * rounded-rect mask (cached like the flat shadows), warped, with nothing cut out under the frame
 * (the frame no longer sits exactly over it).
 */
export async function drawWarpedShadow(canvas: RawImage, s: SceneShadow, cache: MaskCache): Promise<void> {
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
  );
}

/**
 * Draws the rendered flat frame layer (straight RGBA of `layer.rect`) onto the canvas: depth
 * blur first (on the flat layer, so its mask follows the frame), then the camera warp (or a
 * plain placement).
 */
export async function drawFrameLayer(canvas: RawImage, flat: RawImage, layer: SceneLayer): Promise<void> {
  const { x, y } = layer.rect;
  const pre = layer.depthBlur
    ? await blurLayer({ data: flat.data, width: flat.width, height: flat.height, x, y }, layer.depthBlur)
    : premultiply(flat.data, flat.width, flat.height, x, y);
  warpOnto(canvas, pre, layer.camera?.matrix ?? translate(0, 0));
}
