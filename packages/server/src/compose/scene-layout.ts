/**
 * Where everything goes, in CSS px: the subject's size (the screenshot, or its device), the title
 * block's room, the frame scale k (solved for output.width/height), the canvas size with its
 * limits, and the content column with the frame's slot and rectangle. The measurer wraps the
 * title block, which takes room beside the frame. Pure: no I/O.
 */

import { layoutProjection } from './camera/scene-layer.ts';
import { cropToRatio, expandToRatio, heightForWidth } from './canvas-geometry.ts';
import { ComposeError } from './compose-error.ts';
import type { Rgba } from './css/css-color.ts';
import { type DevicePlan, planDevice } from './frames/device-layer.ts';
import { buildTitleBlock } from './scene-text.ts';
import type { Rect } from './scene-types.ts';
import type { ResolvedStyle } from './style-types.ts';
import type { TextMeasurer } from './text/text-layout.ts';

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
  /** Largest canvas side and area in pixels (a ComposeError `too_large` beyond). */
  maxSide?: number;
  maxPixels?: number;
}
/**
 * Space added above or below the content column, CSS px: how the scene makes room for a free
 * text overlay that would otherwise cover the title block. Never added on the edge a cropped
 * device runs off.
 */
export interface ExtraRoom {
  top: number;
  bottom: number;
}

export const NO_EXTRA_ROOM: ExtraRoom = { top: 0, bottom: 0 };

/** The content column at one frame scale: the frame, its projected slot and the title block. */
export interface ContentColumn {
  /** The flat frame (screenshot or device plus the inset ring), CSS px. */
  frameW: number;
  frameH: number;
  /** The frame's bounds once the camera turned it, and its centre's shift from the pivot. */
  slot: { width: number; height: number; dx: number; dy: number };
  /** The wrapped title, subtitle and badge, or null without a title. */
  block: ReturnType<typeof buildTitleBlock>;
  /** Space between the title block and the frame (0 for an overlay title). */
  gap: number;
  /** The column's size: the slot and, unless overlaid, the title block with its gap. */
  contentW: number;
  contentH: number;
  /** Height the title block takes in the column, gap included. */
  blockH: number;
}

/** Where everything goes, in CSS px unless named otherwise. */
export interface SceneLayout {
  /** Output pixels per CSS px (output.dpr). */
  pixelRatio: number;
  /** The device frame's plan, or null without a device. */
  devicePlan: DevicePlan | null;
  /** The part of the capture that is shown (frame_ratio, device screen), capture pixels. */
  crop: ReturnType<typeof cropToRatio>;
  /** Inset plus an outside border around the screenshot. */
  ring: number;
  padding: number;
  /** The canvas edge a cropped device runs off, or null. */
  croppedEdge: 'top-cropped' | 'bottom-cropped' | null;
  titleOverlay: boolean;
  /** Title block aligned left (top-left, bottom-left). */
  titleAtLeft: boolean;
  /** Title block above the frame. */
  titleFirst: boolean;
  /** Scale of the subject: frame_scale, or solved for output.width/height. */
  frameScale: number;
  column: ContentColumn;
  canvasWidth: number;
  canvasHeight: number;
  /** Top-left corner of the content column. */
  columnX: number;
  columnY: number;
  /** Where the (projected) frame sits. */
  slot: Rect;
  /** The flat frame's rectangle. */
  frame: Rect;
}

/**
 * Lays the scene out before anything is placed: the device plan or the cropped capture, the frame
 * scale k and the layout at k, the canvas size (a ComposeError `too_large` past the limits), and the
 * content column's origin, the frame's slot and the flat frame rectangle.
 */
export function layoutScene(
  s: ResolvedStyle,
  shot: ScreenshotInfo,
  options: SceneOptions,
  measure: TextMeasurer,
  room: ExtraRoom = NO_EXTRA_ROOM,
): SceneLayout {
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
  const padTop = cut === 'top-cropped' ? 0 : P + room.top;
  const padBottom = cut === 'bottom-cropped' ? 0 : P + room.bottom;
  const overlay = s.title_position === 'overlay-bottom';
  const left = s.title_position === 'top-left' || s.title_position === 'bottom-left';
  const before =
    cut === 'bottom-cropped' ||
    (cut !== 'top-cropped' && (s.title_position === 'above' || s.title_position === 'top-left'));

  const layout = (k: number): ContentColumn => {
    const frameW = baseW * k + 2 * ring;
    const frameH = baseH * k + 2 * ring;
    // The frame's slot: its bounds once the camera turned it (the flat frame without a camera).
    const slot = layoutProjection(s, frameW, frameH);
    // With a fixed canvas (both output sides, as a `canvas` preset gives) the title may use most
    // of the canvas width, not only the frame's: a phone on a wide canvas keeps its words whole.
    const canvasWrap =
      s.output.width !== null && s.output.height !== null
        ? (s.output.width - 2 * P) * (left ? 0.7 : 0.86)
        : 0;
    const wrap = overlay
      ? frameW * 0.72 - 2 * ring
      : left
        ? Math.max(slot.width * 0.7, 240, canvasWrap)
        : Math.max(slot.width * 0.86, 240, canvasWrap);
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
        throw new ComposeError(
          'no_room',
          `Leaves no room for the screenshot in a ${W}x${H} output; lower padding or title sizes`,
        );
      }
      l = layout(k);
    }
  }
  const W = canvas.width;
  const H = canvas.height;
  assertOutputSize(W, H, px, options);

  // Content column centred; auto_balance moves it against the shadow so the pair looks centred.
  let cx = (W - l.contentW) / 2;
  // Between the top and bottom padding (equal unless text needed extra room on one side).
  let cy =
    cut === 'bottom-cropped'
      ? H - l.contentH
      : cut === 'top-cropped'
        ? 0
        : padTop + (H - padTop - padBottom - l.contentH) / 2;
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
  return {
    pixelRatio: px,
    devicePlan: plan,
    crop,
    ring,
    padding: P,
    croppedEdge: cut,
    titleOverlay: overlay,
    titleAtLeft: left,
    titleFirst: before,
    frameScale: k,
    column: l,
    canvasWidth: W,
    canvasHeight: H,
    columnX: cx,
    columnY: cy,
    slot,
    frame: frameCss,
  };
}

/** A `too_large` ComposeError when a W x H CSS px canvas at `px` device pixels exceeds the limits. */
export function assertOutputSize(W: number, H: number, px: number, options: SceneOptions): void {
  const maxSide = options.maxSide ?? 16_384;
  const maxPixels = options.maxPixels ?? 64_000_000;
  if (W * px > maxSide || H * px > maxSide || W * H * px * px > maxPixels) {
    throw new ComposeError(
      'too_large',
      `The composed image would be ${W * px}x${H * px} px, over the limit`,
      { max_side: maxSide, max_pixels: maxPixels },
    );
  }
}
