/**
 * The pure scene model: a resolved request and the capture's size in, a Scene out (canvas,
 * background, shadows, frame, screenshot, device, texts, camera layer), plus the geometry
 * summary `resolved_params` shows. Layout, paint and text placement live in their own modules.
 */
import { buildSceneLayer } from './camera/scene-layer.ts';
import { scaleRect } from './canvas-geometry.ts';
import { hex } from './frames/device-finish.ts';
import { type PlacedDevice, placeDevice } from './frames/device-layer.ts';
import type { ResolvedStyle } from './resolve-style.ts';
import { layoutScene, type SceneOptions, type ScreenshotInfo } from './scene-layout.ts';
import { color, sceneBackground, sceneShadows, WHITE } from './scene-paint.ts';
import { buildFreeText, buildWatermark, type TitleBlock } from './scene-text.ts';
import { place, placeWatermark } from './scene-text-placement.ts';
import type { Rect, Scene, SceneText } from './scene-types.ts';
import { createEstimatingMeasurer } from './text/text-layout.ts';

export type { SceneOptions, ScreenshotInfo } from './scene-layout.ts';

/**
 * Turns resolved styling and the capture's size into a Scene: canvas size (natural, aspect_ratio,
 * or output.width/height with the screenshot scaled to fit), frame and screenshot rectangles,
 * shadow layers, border, and every text layer already wrapped. Pure: no I/O, no clock.
 */
export function buildScene(s: ResolvedStyle, shot: ScreenshotInfo, options: SceneOptions = {}): Scene {
  const measure = options.measurer ?? createEstimatingMeasurer();
  const layout = layoutScene(s, shot, options, measure);
  const { pixelRatio: px, devicePlan: plan, crop, ring, padding: P, croppedEdge: cut } = layout;
  const { titleOverlay: overlay, titleAtLeft: left, titleFirst: before, frameScale: k } = layout;
  const { column: l, canvasWidth: W, canvasHeight: H, columnX: cx, columnY: cy, slot } = layout;
  const frameCss = layout.frame;
  const placed: PlacedDevice | null = plan
    ? placeDevice(
        plan,
        {
          x: frameCss.x,
          y: cut === 'top-cropped' ? frameCss.y + l.frameH - plan.height * k : frameCss.y,
          k,
          px,
        },
        { url: shot.url ?? null, title: shot.title ?? null, topColor: shot.topColor ?? null },
        measure,
      )
    : null;
  const frameRect = placed ? placed.frame.rect : scaleRect(frameCss, px);
  // The screenshot's area in CSS px: inside the inset ring, or the device's screen.
  const inner: Rect = placed?.screenCss ?? {
    x: frameCss.x + ring,
    y: frameCss.y + ring,
    width: l.frameW - 2 * ring,
    height: l.frameH - 2 * ring,
  };
  const shotRect = placed ? placed.screenshot.rect : scaleRect(inner, px);
  const frameRadius = placed
    ? placed.frame.radius
    : Math.min(s.corner_radius * px, frameRect.width / 2, frameRect.height / 2);
  const shotRadius = placed
    ? placed.screenshot.radius
    : Math.max(0, Math.min(frameRadius - ring * px, shotRect.width / 2, shotRect.height / 2));

  const onFrame = { onFrame: true } as const;
  const texts: SceneText[] = placed ? placed.texts.map((t) => ({ ...t, ...onFrame })) : [];
  let scrim: Scene['scrim'] = null;
  const block: TitleBlock | null = l.block;
  if (block) {
    let bx = left ? slot.x : cx + (l.contentW - block.width) / 2;
    let by = before ? cy : slot.y + slot.height + l.gap;
    if (overlay) {
      const gap = Math.max(24, Math.round(inner.width * 0.04));
      bx = inner.x + gap;
      by = inner.y + inner.height - gap - block.height;
      const top = Math.max(inner.y, by - gap * 2.5);
      scrim = {
        rect: scaleRect({ x: inner.x, y: top, width: inner.width, height: inner.y + inner.height - top }, px),
        radius: shotRadius,
        color: { r: 2, g: 6, b: 23, a: 0.78 },
      };
    }
    for (const item of block.items) texts.push({ ...place(item, bx, by, px), ...(overlay ? onFrame : {}) });
  }
  const mark = buildWatermark(s, measure);
  if (mark) {
    texts.push(
      placeWatermark(mark, { H, P, contentBottom: cy + l.contentH, right: slot.x + slot.width, inner, px }),
    );
  }
  const free = buildFreeText(s, W, H, measure);
  if (free) texts.push(place(free, 0, 0, px));

  const frameFlat = placed ? scaleRect(frameCss, px) : frameRect;
  const layer = buildSceneLayer(
    s,
    frameFlat,
    { x: (slot.x + slot.width / 2) * px, y: (slot.y + slot.height / 2) * px },
    { width: W * px, height: H * px },
    [
      frameRect,
      frameFlat,
      ...(placed ? [placed.device.rect] : []),
      ...texts.filter((t) => t.onFrame).map((t) => t.box),
    ],
  );
  const cam = layer?.camera ?? null;
  if (!layer) for (const t of texts) delete t.onFrame;
  const unrendered: string[] = [];
  if (s.background_style === 'image') unrendered.push('background');

  return {
    canvas: { width: W * px, height: H * px, dpr: px, scale: px },
    background: sceneBackground(s),
    shadows: placed
      ? placed.device.silhouette.flatMap((part) => sceneShadows(s, part.rect, part.radius, px, cam))
      : sceneShadows(s, frameRect, frameRadius, px, cam),
    frame: placed?.frame ?? {
      rect: frameRect,
      radius: frameRadius,
      fill: s.inset > 0 ? (s.inset_balance ? 'auto' : WHITE) : null,
      border:
        s.border === 'none'
          ? null
          : {
              kind: s.border === 'subtle' ? 'rim' : s.border === 'glass' ? 'glass' : 'solid',
              width: s.border_width * px,
              color: color(s.border_color),
            },
    },
    screenshot: placed?.screenshot ?? { rect: shotRect, radius: shotRadius, crop },
    scrim,
    texts,
    device: placed?.device ?? null,
    layer,
    unrendered,
  };
}

/** The computed geometry for `resolved_params.canvas`: what a client needs to place things. */
export function sceneGeometry(scene: Scene): Record<string, unknown> {
  return {
    width: scene.canvas.width,
    height: scene.canvas.height,
    dpr: scene.canvas.dpr,
    frame: scene.frame.rect,
    screenshot: scene.screenshot.rect,
    crop: scene.screenshot.crop,
    texts: scene.texts.map((t) => ({ role: t.role, box: t.box, size: t.size, lines: t.lines })),
    ...(scene.device
      ? {
          device: {
            rect: scene.device.rect,
            screen: scene.device.screen,
            color: scene.device.color,
            bar: scene.device.bar
              ? {
                  rect: scene.device.bar.rect,
                  background: hex(scene.device.bar.background),
                  foreground: hex(scene.device.bar.foreground),
                }
              : null,
          },
        }
      : {}),
  };
}
