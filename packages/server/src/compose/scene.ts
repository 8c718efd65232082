/**
 * The pure scene model: a resolved request and the capture's size in, a Scene out (canvas,
 * background, shadows, frame, screenshot, device, texts, camera layer), plus the geometry
 * summary `resolved_params` shows. Layout, paint and text placement live in their own modules.
 */
import { buildSceneLayer } from './camera/scene-layer.ts';
import { scaleRect } from './canvas-geometry.ts';
import { hex } from './frames/device-finish.ts';
import { type PlacedDevice, placeDevice } from './frames/device-layer.ts';
import {
  type ExtraRoom,
  layoutScene,
  NO_EXTRA_ROOM,
  type SceneLayout,
  type SceneOptions,
  type ScreenshotInfo,
} from './scene-layout.ts';
import { color, sceneBackground, sceneShadows, WHITE } from './scene-paint.ts';
import { type BlockItem, buildFreeText, buildWatermark, type TitleBlock } from './scene-text.ts';
import { place, placeWatermark } from './scene-text-placement.ts';
import type { Rect, Scene, SceneText } from './scene-types.ts';
import type { ResolvedStyle } from './style-types.ts';
import { createEstimatingMeasurer, type TextMeasurer } from './text/text-layout.ts';

export type { SceneOptions, ScreenshotInfo } from './scene-layout.ts';

/** Space kept between the free text overlay and the title block, CSS px. */
const TEXT_CLEARANCE = 16;
/** Re-layouts allowed to make room for the free text (each one converges by at least 1 - text_y). */
const MAX_ROOM_PASSES = 6;

/**
 * Turns resolved styling and the capture's size into a Scene: canvas size (natural, aspect_ratio,
 * or output.width/height with the screenshot scaled to fit), frame and screenshot rectangles,
 * shadow layers, border, and every text layer already wrapped. Text blocks never collide: the
 * free text overlay keeps its anchor, and when it would cover the title block (badge included)
 * the content column is given room on that side and laid out again; the watermark takes a place
 * clear of both. Pure: no I/O, no clock.
 */
export function buildScene(s: ResolvedStyle, shot: ScreenshotInfo, options: SceneOptions = {}): Scene {
  const measure = options.measurer ?? createEstimatingMeasurer();
  let room = NO_EXTRA_ROOM;
  for (let pass = 0; ; pass++) {
    const scene = composeScene(s, layoutScene(s, shot, options, measure, room), shot, measure);
    const more = pass < MAX_ROOM_PASSES ? roomForFreeText(scene, room, s.text_y) : null;
    if (!more) return scene;
    room = more;
  }
}

/** Union of rects. */
function boundsOf(rects: Rect[]): Rect | null {
  if (rects.length === 0) return null;
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x, y, width: right - x, height: bottom - y };
}

/** Whether two rects overlap once `a` is grown by `margin` on every side. */
export function rectsOverlap(a: Rect, b: Rect, margin = 0): boolean {
  return (
    a.x - margin < b.x + b.width &&
    b.x < a.x + a.width + margin &&
    a.y - margin < b.y + b.height &&
    b.y < a.y + a.height + margin
  );
}

/**
 * The extra room (CSS px) that moves the title block clear of the free text overlay, or null
 * when they are already apart. The free text is anchored at a fraction `textY` of the canvas
 * height, so room above the content moves the block down past a text in the upper half (the
 * text follows by only `textY` of it), and room below moves a text in the lower half down past
 * the block (the block stays). Each step asks for what closes the gap at that relative speed.
 */
function roomForFreeText(scene: Scene, room: ExtraRoom, textY: number): ExtraRoom | null {
  const px = scene.canvas.dpr;
  const free = scene.texts.find((t) => t.role === 'text')?.box;
  const block = boundsOf(
    scene.texts
      .filter((t) => t.role === 'title' || t.role === 'subtitle' || t.role === 'badge')
      .map((t) => t.box),
  );
  if (!free || !block || !rectsOverlap(free, block, TEXT_CLEARANCE * px)) return null;
  const gap = TEXT_CLEARANCE * px;
  if (textY < 0.5) {
    const extra = Math.ceil((free.y + free.height + gap - block.y) / px / (1 - textY));
    return { ...room, top: room.top + Math.max(1, extra) };
  }
  const extra = Math.ceil((block.y + block.height + gap - free.y) / px / textY);
  return { ...room, bottom: room.bottom + Math.max(1, extra) };
}

/** The free text moved inside the canvas when its anchor would put part of it outside. */
function insideCanvas(item: BlockItem, width: number, height: number): BlockItem {
  const x = Math.max(0, Math.min(item.x, width - item.width));
  const y = Math.max(0, Math.min(item.y, height - item.height));
  return { ...item, x: item.width > width ? 0 : x, y: item.height > height ? 0 : y };
}

/** Places everything of one layout (see buildScene). */
function composeScene(
  s: ResolvedStyle,
  layout: SceneLayout,
  shot: ScreenshotInfo,
  measure: TextMeasurer,
): Scene {
  const { pixelRatio: px, devicePlan: plan, crop, ring, croppedEdge, frameScale, column, slot } = layout;
  const { canvasWidth, canvasHeight, columnX, columnY } = layout;
  const frameCss = layout.frame;
  const placed: PlacedDevice | null = plan
    ? placeDevice(
        plan,
        {
          x: frameCss.x,
          y:
            croppedEdge === 'top-cropped'
              ? frameCss.y + column.frameH - plan.height * frameScale
              : frameCss.y,
          k: frameScale,
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
    width: column.frameW - 2 * ring,
    height: column.frameH - 2 * ring,
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
  /** Title block and free text in CSS px: where the watermark must not go. */
  const taken: Rect[] = [];
  let scrim: Scene['scrim'] = null;
  const block: TitleBlock | null = column.block;
  if (block) {
    let blockX = layout.titleAtLeft ? slot.x : columnX + (column.contentW - block.width) / 2;
    let blockY = layout.titleFirst ? columnY : slot.y + slot.height + column.gap;
    if (layout.titleOverlay) {
      const gap = Math.max(24, Math.round(inner.width * 0.04));
      blockX = inner.x + gap;
      blockY = inner.y + inner.height - gap - block.height;
      const top = Math.max(inner.y, blockY - gap * 2.5);
      scrim = {
        rect: scaleRect({ x: inner.x, y: top, width: inner.width, height: inner.y + inner.height - top }, px),
        radius: shotRadius,
        color: { r: 2, g: 6, b: 23, a: 0.78 },
      };
    }
    for (const item of block.items) {
      texts.push({ ...place(item, blockX, blockY, px), ...(layout.titleOverlay ? onFrame : {}) });
      taken.push({ x: item.x + blockX, y: item.y + blockY, width: item.width, height: item.height });
    }
  }
  const built = buildFreeText(s, canvasWidth, canvasHeight, measure);
  const free = built ? insideCanvas(built, canvasWidth, canvasHeight) : null;
  if (free) taken.push(free);
  const mark = buildWatermark(s, measure);
  if (mark) {
    texts.push(
      placeWatermark(mark, {
        canvasHeight,
        padding: layout.padding,
        contentTop: columnY,
        contentBottom: columnY + column.contentH,
        right: slot.x + slot.width,
        left: slot.x,
        inner,
        px,
        avoid: taken,
      }),
    );
  }
  if (free) texts.push(place(free, 0, 0, px));

  const frameFlat = placed ? scaleRect(frameCss, px) : frameRect;
  const layer = buildSceneLayer(
    s,
    frameFlat,
    { x: (slot.x + slot.width / 2) * px, y: (slot.y + slot.height / 2) * px },
    { width: canvasWidth * px, height: canvasHeight * px },
    [
      frameRect,
      frameFlat,
      ...(placed ? [placed.device.rect] : []),
      ...texts.filter((t) => t.onFrame).map((t) => t.box),
    ],
  );
  const camera = layer?.camera ?? null;
  if (!layer) for (const t of texts) delete t.onFrame;
  const unrendered: string[] = [];
  if (s.background_style === 'image') unrendered.push('background');

  return {
    canvas: { width: canvasWidth * px, height: canvasHeight * px, dpr: px, scale: px },
    background: sceneBackground(s),
    shadows: placed
      ? placed.device.silhouette.flatMap((part) => sceneShadows(s, part.rect, part.radius, px, camera))
      : sceneShadows(s, frameRect, frameRadius, px, camera),
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
