import { outsetRect } from '../canvas-geometry.ts';
import { planDepthBlur } from '../effects/depth-blur-mask.ts';
import type { Rect, Scene, SceneLayer } from '../scene-types.ts';
import type { ResolvedStyle } from '../style-types.ts';
import type { Point } from './camera-math.ts';
import { isFlatCamera } from './camera-presets.ts';
import { type PlacedCamera, placeCamera, projectedBox } from './scene-camera.ts';

/** The projected size of a flat w x h frame and its centre's shift from the pivot (identity when flat). */
export function layoutProjection(s: ResolvedStyle, w: number, h: number) {
  return isFlatCamera(s) ? { width: w, height: h, dx: 0, dy: 0 } : projectedBox(s, w, h);
}

/** Union of rects, whole pixels outwards. */
function union(rects: Rect[]): Rect {
  const x0 = Math.floor(Math.min(...rects.map((r) => r.x)));
  const y0 = Math.floor(Math.min(...rects.map((r) => r.y)));
  const x1 = Math.ceil(Math.max(...rects.map((r) => r.x + r.width)));
  const y1 = Math.ceil(Math.max(...rects.map((r) => r.y + r.height)));
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * The frame layer of a scene with a camera transform or depth blur, else null. `frame`: the
 * flat frame (the visible device for devices) in px; `slot`: where the layout centred its
 * projection, px; `parts`: everything drawn in the layer (frame, device, texts on it), px.
 */
export function buildSceneLayer(
  s: ResolvedStyle,
  frame: Rect,
  slot: Point,
  canvas: { width: number; height: number },
  parts: Rect[],
): SceneLayer | null {
  const camera: PlacedCamera | null = isFlatCamera(s) ? null : placeCamera(s, frame, slot, canvas);
  const depthBlur = planDepthBlur(s, frame, camera?.rotation ?? null);
  if (!camera && !depthBlur) return null;
  const reach = Math.ceil(3 * (depthBlur?.sigmas.at(-1) ?? 0)) + 2;
  const rect = union(parts.map((r) => outsetRect(r, reach)));
  return { rect, camera, depthBlur };
}

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
