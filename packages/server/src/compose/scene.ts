import { AppError, invalidParam } from '../errors/app-error.ts';
import { type PlacedCamera, shadowMatrix } from './camera/scene-camera.ts';
import { buildSceneLayer, layoutProjection } from './camera/scene-layer.ts';
import { cropToRatio, expandToRatio, heightForWidth, outsetRect, scaleRect } from './canvas-geometry.ts';
import { parseCssColor, type Rgba, withAlpha } from './css/css-color.ts';
import { parseCssGradient } from './css/css-gradient.ts';
import { hex } from './frames/device-finish.ts';
import { type DevicePlan, type PlacedDevice, placeDevice, planDevice } from './frames/device-layer.ts';
import type { ResolvedStyle } from './resolve-style.ts';
import {
  type BlockItem,
  buildFreeText,
  buildTitleBlock,
  buildWatermark,
  scaleTextShadow,
  type TitleBlock,
} from './scene-text.ts';
import type { Rect, Scene, SceneBackground, SceneShadow, SceneText } from './scene-types.ts';
import { SHADOW_PRESETS } from './shadow-presets.ts';
import { createEstimatingMeasurer, type TextMeasurer } from './text/text-layout.ts';

/** The capture as the compose stage receives it: pixel size and the DPR it was taken at. */
export interface ScreenshotInfo {
  width: number;
  height: number;
  /** capture_dpr; the screenshot's CSS size is its pixel size divided by this. Default 1. */
  dpr?: number;
  /** The captured page's final URL and title: a browser frame shows them in its address bar and tab. */
  url?: string | null;
  title?: string | null;
  /** Mean colour of the capture's top rows: a device's status or menu bar takes it. */
  topColor?: Rgba | null;
}

export interface SceneOptions {
  /** Wraps text; the font catalogue's measurer in production, an estimate by default. */
  measurer?: TextMeasurer;
  /** Largest canvas side and area in pixels (422 too_large beyond). */
  maxSide?: number;
  maxPixels?: number;
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const color = (css: string | null, fallback: Rgba = WHITE): Rgba =>
  css ? (parseCssColor(css) ?? fallback) : fallback;

function background(s: ResolvedStyle): SceneBackground {
  switch (s.background_style) {
    case 'gradient':
      return {
        kind: 'gradient',
        gradient: parseCssGradient(s.background_gradient ?? ''),
        css: s.background_gradient ?? '',
      };
    case 'solid':
      return { kind: 'solid', color: color(s.background_color) };
    case 'image':
      return {
        kind: 'image',
        source: s.background_image_url
          ? { type: 'url', url: s.background_image_url }
          : { type: 'catalogue', ref: s.background ?? '' },
        fallback: { r: 30, g: 27, b: 75, a: 1 },
      };
    case 'none':
      // No background: transparent around the frame, white where the format has no alpha.
      return s.output.format === 'jpg' ? { kind: 'solid', color: WHITE } : { kind: 'transparent' };
    default:
      return { kind: 'transparent' };
  }
}

function shadows(
  s: ResolvedStyle,
  frame: Rect,
  radius: number,
  px: number,
  cam: PlacedCamera | null,
): SceneShadow[] {
  if (s.shadow === 'none' && s.shadow_opacity === 0) return [];
  const key = {
    color: s.shadow_color,
    blur: s.shadow_blur,
    offset_x: s.shadow_offset_x,
    offset_y: s.shadow_offset_y,
    spread: s.shadow_spread,
    opacity: s.shadow_opacity,
  };
  const preset = s.shadow === 'none' ? null : SHADOW_PRESETS[s.shadow];
  const strength = preset && preset.key.opacity > 0 ? s.shadow_opacity / preset.key.opacity : 1;
  const layers = [...(preset?.ambient ?? []).map((a) => ({ ...a, opacity: a.opacity * strength })), key];
  return layers
    .filter((l) => l.opacity > 0)
    .map((l) => {
      const rect = outsetRect(frame, l.spread * px);
      const offset = { x: l.offset_x * px, y: l.offset_y * px };
      return {
        rect: cam ? rect : { ...rect, x: rect.x + offset.x, y: rect.y + offset.y },
        radius: Math.max(0, radius + l.spread * px),
        sigma: (l.blur / 2) * px,
        color: withAlpha(color(l.color, { r: 0, g: 0, b: 0, a: 1 }), l.opacity),
        ...(cam ? { matrix: shadowMatrix(cam, offset) } : {}),
      };
    })
    .filter((l) => l.color.a > 0 && l.rect.width > 0 && l.rect.height > 0);
}

function place(item: BlockItem, dx: number, dy: number, px: number): SceneText {
  const { x, y, width, height, ...rest } = item;
  return {
    ...rest,
    box: scaleRect({ x: x + dx, y: y + dy, width, height }, px),
    size: rest.size * px,
    lineHeight: rest.lineHeight * px,
    letterSpacing: rest.letterSpacing * px,
    shadowCss: rest.shadowCss ? scaleTextShadow(rest.shadowCss, px) : null,
    pill: rest.pill ? { ...rest.pill, radius: rest.pill.radius * px } : null,
  };
}

/**
 * Turns resolved styling and the capture's size into a Scene: canvas size (natural, aspect_ratio,
 * or output.width/height with the screenshot scaled to fit), frame and screenshot rectangles,
 * shadow layers, border, and every text layer already wrapped. Pure: no I/O, no clock.
 */
export function buildScene(s: ResolvedStyle, shot: ScreenshotInfo, options: SceneOptions = {}): Scene {
  const measure = options.measurer ?? createEstimatingMeasurer();
  const px = s.output.dpr;
  const captureDpr = shot.dpr ?? 1;
  const plan: DevicePlan | null = s.device ? planDevice({ ...s, device: s.device }, shot) : null;
  const crop = plan ? plan.crop : cropToRatio(shot.width, shot.height, s.frame_ratio);
  // The subject at k = 1: the screenshot's CSS size, or the device's (visible) size.
  const baseW = plan ? plan.width : crop.width / captureDpr;
  const baseH = plan ? plan.visibleHeight : crop.height / captureDpr;
  const outside = !plan && s.border !== 'none' && s.border !== 'subtle' ? s.border_width : 0;
  const ring = plan ? 0 : s.inset + outside;
  const P = s.padding;
  // A cropped device runs off one canvas edge: no padding there, and the title goes on the other side.
  const cut = plan && s.layout !== 'default' ? s.layout : null;
  const padTop = cut === 'top-cropped' ? 0 : P;
  const padBottom = cut === 'bottom-cropped' ? 0 : P;
  const overlay = s.title_position === 'overlay-bottom';
  const left = s.title_position === 'top-left' || s.title_position === 'bottom-left';
  const before =
    cut === 'bottom-cropped' ||
    (cut !== 'top-cropped' && (s.title_position === 'above' || s.title_position === 'top-left'));

  const layout = (k: number) => {
    const frameW = baseW * k + 2 * ring;
    const frameH = baseH * k + 2 * ring;
    // The frame's slot: its bounds once the camera turned it (the flat frame without a camera).
    const slot = layoutProjection(s, frameW, frameH);
    const wrap = overlay
      ? frameW * 0.72 - 2 * ring
      : left
        ? Math.max(slot.width * 0.7, 240)
        : Math.max(slot.width * 0.86, 240);
    const block = buildTitleBlock(s, wrap, left || overlay ? 'left' : 'center', overlay, measure);
    const gap = block && !overlay ? Math.max(24, Math.round(s.title_size * 0.75)) : 0;
    const blockH = block && !overlay ? block.height + gap : 0;
    return {
      frameW,
      frameH,
      slot,
      block,
      gap,
      contentW: Math.max(slot.width, block && !overlay ? block.width : 0),
      contentH: slot.height + blockH,
      blockH,
    };
  };

  let k = s.frame_scale;
  let l = layout(k);
  let canvas = expandToRatio(l.contentW + 2 * P, l.contentH + padTop + padBottom, s.aspect_ratio);
  if (s.output.width !== null || s.output.height !== null) {
    const W = s.output.width ?? Math.round(((s.output.height ?? 0) * canvas.width) / canvas.height);
    const H =
      s.output.height ?? heightForWidth(W, s.aspect_ratio, Math.round((W * canvas.height) / canvas.width));
    canvas = { width: W, height: H };
    for (let i = 0; i < 3; i++) {
      const rx = l.slot.width / l.frameW;
      const ry = l.slot.height / l.frameH;
      k =
        s.frame_scale *
        Math.min(
          ((W - 2 * P) / rx - 2 * ring) / baseW,
          ((H - padTop - padBottom - l.blockH) / ry - 2 * ring) / baseH,
        );
      if (!(k > 0.02)) {
        throw invalidParam(
          'padding',
          `Leaves no room for the screenshot in a ${W}x${H} output; lower padding or title sizes`,
        );
      }
      l = layout(k);
    }
  }
  const W = canvas.width;
  const H = canvas.height;
  const maxSide = options.maxSide ?? 16_384;
  const maxPixels = options.maxPixels ?? 64_000_000;
  if (W * px > maxSide || H * px > maxSide || W * H * px * px > maxPixels) {
    throw new AppError(
      'capture_failed',
      `The composed image would be ${W * px}x${H * px} px, over the limit`,
      {
        details: { reason: 'too_large', max_side: maxSide, max_pixels: maxPixels },
      },
    );
  }

  // Content column centred; auto_balance moves it against the shadow so the pair looks centred.
  let cx = (W - l.contentW) / 2;
  let cy = cut === 'bottom-cropped' ? H - l.contentH : cut === 'top-cropped' ? 0 : (H - l.contentH) / 2;
  if (s.auto_balance && s.shadow !== 'none') {
    cx -= Math.max(-P / 2, Math.min(P / 2, s.shadow_offset_x / 2));
    if (!cut) cy -= Math.max(-P / 2, Math.min(P / 2, s.shadow_offset_y / 2));
  }
  const slot: Rect = {
    x: cx + (l.contentW - l.slot.width) / 2,
    y: before ? cy + l.blockH : cy,
    width: l.slot.width,
    height: l.slot.height,
  };
  const frameCss: Rect = {
    x: slot.x + slot.width / 2 - l.slot.dx - l.frameW / 2,
    y: slot.y + slot.height / 2 - l.slot.dy - l.frameH / 2,
    width: l.frameW,
    height: l.frameH,
  };
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
    const contentBottom = cy + l.contentH;
    const band = H - contentBottom;
    const right = slot.x + slot.width;
    if (band >= mark.height + 16) {
      const y = H - Math.min(band, Math.max(P, mark.height + 16)) / 2 - mark.height / 2;
      texts.push(place({ ...mark, x: right - mark.width, y }, 0, 0, px));
    } else {
      const m = 10;
      const x = inner.x + inner.width - 12 - mark.width - m;
      const y = inner.y + inner.height - 12 - mark.height - m / 2;
      texts.push({
        ...onFrame,
        ...place(
          {
            ...mark,
            color: { r: 255, g: 255, b: 255, a: 0.92 },
            pill: { fill: { r: 2, g: 6, b: 23, a: 0.55 }, stroke: null, radius: (mark.height + m) / 2 },
            align: 'center',
            x: x - m,
            y: y - m / 2,
            width: mark.width + 2 * m,
            height: mark.height + m,
          },
          0,
          0,
          px,
        ),
      });
    }
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
    background: background(s),
    shadows: placed
      ? placed.device.silhouette.flatMap((part) => shadows(s, part.rect, part.radius, px, cam))
      : shadows(s, frameRect, frameRadius, px, cam),
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
