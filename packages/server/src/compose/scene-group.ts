/**
 * The pure model of a scene of several shots (issue 38): each shot is a scene of its own (its
 * frame, device and shadow on a transparent canvas, no titles), laid out by the arrangement
 * (`side-by-side`, `overlap`, `fan`, `grid`, `stack`, `cascade`) at one common scale, fitted to
 * the canvas (output size or `canvas` preset, never stretched); the backdrop is the scene's one
 * background with its one set of titles. Renderers draw the backdrop and every shot with the
 * same code as a single capture; the compose stage places the shots over the backdrop in order.
 * Pure: no I/O.
 */
import type { SceneAlignment, SceneLayoutName } from '@vitrine/contract';
import { apply, corners, type Point } from './camera/camera-math.ts';
import { isFlatCamera } from './camera/camera-presets.ts';
import { placeCamera } from './camera/scene-camera.ts';
import { layoutProjection } from './camera/scene-layer.ts';
import { expandToRatio, heightForWidth, outsetRect } from './canvas-geometry.ts';
import { ComposeError } from './compose-error.ts';
import { planDepthBlur } from './effects/depth-blur-mask.ts';
import { buildScene, type ScreenshotInfo } from './scene.ts';
import { assertOutputSize, layoutScene, NO_EXTRA_ROOM, type SceneOptions } from './scene-layout.ts';
import { sceneBackground } from './scene-paint.ts';
import { buildFreeText, buildTitleBlock, buildWatermark } from './scene-text.ts';
import { place, placeWatermark } from './scene-text-placement.ts';
import type { Rect, Scene, SceneLayer, SceneText } from './scene-types.ts';
import { keyShadowOf, SHADOW_PRESET_VALUES } from './shadow-presets.ts';
import type { ResolvedStyle } from './style-types.ts';
import { createEstimatingMeasurer, type TextMeasurer } from './text/text-layout.ts';

/** How one shot is framed (the compose stage's ShotFrame). */
export interface GroupShotFrame {
  device: ResolvedStyle['device'];
  device_color: string | null;
  device_scale: number;
  frame_ratio: ResolvedStyle['frame_ratio'];
}

export interface SceneArrangement {
  layout: SceneLayoutName;
  spacing: number;
  alignment: SceneAlignment;
}

/** A shot drawn: its own scene (a transparent canvas) and where that canvas goes, output px. */
export interface PlacedShot {
  /** The shot's index in the request. */
  index: number;
  scene: Scene;
  /** Top-left corner of the shot's canvas on the scene's canvas, whole output px. */
  x: number;
  y: number;
}

/**
 * A scene of several shots: the backdrop (background and titles), then the shots in drawing
 * order; with the scene's camera or depth blur, the shots are first drawn flat into `layer.rect`
 * (whole px of the canvas's space) and that group layer is blurred and seen through the one
 * camera, like the frame layer of a single shot.
 */
export interface SceneGroup {
  backdrop: Scene;
  /** Back to front. */
  shots: PlacedShot[];
  layer: SceneLayer | null;
  /** Texts drawn over the shots (a watermark with no band of the canvas free for it), or null. */
  overlay: Scene | null;
}

/** Largest content of a scene without a fixed canvas, CSS px: three laptops side by side stay sane. */
const NATURAL_MAX = { width: 2400, height: 1500 };
/** Degrees between neighbouring shots of a fan, and the widest fan. */
const FAN_STEP = 10;
const FAN_MAX = 36;

const EMPTY: Rect = { x: 0, y: 0, width: 0, height: 0 };

/** Room around a shot for its shadow to fade out in, CSS px (shadows are not scaled with the shot). */
function shadowRoom(s: ResolvedStyle): number {
  if (s.shadow === 'none' && s.shadow_opacity === 0) return 4;
  const key = keyShadowOf(s);
  const layers = [key, ...(s.shadow === 'none' ? [] : SHADOW_PRESET_VALUES[s.shadow].ambient)];
  const reach = Math.max(
    ...layers.map(
      (l) => 1.5 * l.blur + Math.max(Math.abs(l.offset_x), Math.abs(l.offset_y)) + Math.max(0, l.spread),
    ),
  );
  return Math.ceil(reach) + 4;
}

/** The style a shot is drawn with: the scene's look with the shot's frame, no titles, no background. */
function shotStyle(
  s: ResolvedStyle,
  frame: GroupShotFrame,
  k: number,
  roll: number,
  room: number,
): ResolvedStyle {
  return {
    ...s,
    ...frame,
    background_style: 'transparent',
    background: null,
    background_image_url: null,
    padding: room,
    aspect_ratio: 'auto',
    layout: 'default',
    auto_balance: false,
    title: null,
    subtitle: null,
    badge: null,
    watermark: null,
    text_enabled: false,
    text_content: null,
    frame_scale: s.frame_scale * k,
    // The scene's camera and depth blur see the whole group (SceneGroup.layer); a shot is only
    // turned in its plane by the arrangement (a fan).
    tilt_x: 0,
    tilt_y: 0,
    roll,
    zoom: 1,
    offset_x: 0,
    offset_y: 0,
    depth_blur: 0,
    output: { ...s.output, width: null, height: null },
  };
}

/** A shot's box at scale k in CSS px (its frame, unrotated) and the angle it is drawn at. */
interface Box {
  w: number;
  h: number;
  angle: number;
}
/** A box placed: its centre, CSS px. */
interface Spot {
  cx: number;
  cy: number;
}

function rotatedSize(b: Box): { w: number; h: number } {
  const a = (Math.abs(b.angle) * Math.PI) / 180;
  return {
    w: b.w * Math.cos(a) + b.h * Math.sin(a),
    h: b.w * Math.sin(a) + b.h * Math.cos(a),
  };
}

/** The angle each shot is drawn at: a fan turns them, other arrangements keep them straight. */
function anglesOf(layout: SceneLayoutName, n: number): number[] {
  if (layout !== 'fan') return new Array(n).fill(0);
  const spread = Math.min(FAN_MAX, FAN_STEP * (n - 1));
  return Array.from({ length: n }, (_, i) => -spread / 2 + (spread * i) / (n - 1));
}

/** Where a box sits across a line of boxes `extent` deep: its centre. */
function across(alignment: SceneAlignment, size: number, extent: number): number {
  if (alignment === 'start') return size / 2;
  if (alignment === 'end') return extent - size / 2;
  return extent / 2;
}

/** The centres of the boxes for an arrangement, CSS px (any origin), and the drawing order. */
function arrange(a: SceneArrangement, boxes: Box[]): { spots: Spot[]; order: number[] } {
  const n = boxes.length;
  const g = a.spacing;
  const inOrder = boxes.map((_, i) => i);
  const sizes = boxes.map(rotatedSize);
  const maxW = Math.max(...sizes.map((b) => b.w));
  const maxH = Math.max(...sizes.map((b) => b.h));
  switch (a.layout) {
    case 'side-by-side': {
      let x = 0;
      const spots = sizes.map((b) => {
        const spot = { cx: x + b.w / 2, cy: across(a.alignment, b.h, maxH) };
        x += b.w + g;
        return spot;
      });
      return { spots, order: inOrder };
    }
    case 'stack': {
      let y = 0;
      const spots = sizes.map((b) => {
        const spot = { cx: across(a.alignment, b.w, maxW), cy: y + b.h / 2 };
        y += b.h + g;
        return spot;
      });
      return { spots, order: inOrder };
    }
    case 'grid': {
      const cols = n <= 2 ? n : n <= 4 ? 2 : 3;
      const rows = Math.ceil(n / cols);
      const spots = sizes.map((b, i) => {
        const row = Math.floor(i / cols);
        // A last row that is not full is centred under the others.
        const inRow = row === rows - 1 ? n - row * cols : cols;
        const offset = ((cols - inRow) * (maxW + g)) / 2;
        return {
          cx: offset + (i % cols) * (maxW + g) + maxW / 2,
          cy: row * (maxH + g) + across(a.alignment, b.h, maxH),
        };
      });
      return { spots, order: inOrder };
    }
    case 'overlap': {
      // The first shot behind (a laptop); the others in front of its lower corner (phones),
      // standing a little lower, overlapping it by about half their width.
      const back = boxes[0] as Box;
      const fronts = boxes.slice(1);
      const step = (b: Box) => b.w * 1.04;
      const frontsWidth = fronts.reduce((sum, b) => sum + step(b), 0);
      const toRight = a.alignment !== 'start';
      let x = toRight
        ? back.w / 2 - frontsWidth + 0.45 * (fronts.at(-1) as Box).w
        : -back.w / 2 - 0.45 * (fronts[0] as Box).w;
      const bottom = back.h / 2 + Math.min(back.h * 0.08, 0.12 * Math.max(...fronts.map((b) => b.h)));
      const spots: Spot[] = [{ cx: 0, cy: 0 }];
      for (const b of fronts) {
        spots.push({ cx: x + b.w / 2, cy: bottom - b.h / 2 });
        x += step(b);
      }
      return { spots, order: inOrder };
    }
    case 'fan': {
      // Fanned out like cards: each a little higher towards the middle, the middle one in front.
      const mid = (n - 1) / 2;
      const avgW = boxes.reduce((sum, b) => sum + b.w, 0) / n;
      const avgH = boxes.reduce((sum, b) => sum + b.h, 0) / n;
      const spots = boxes.map((_, i) => ({
        cx: (i - mid) * avgW * 0.62,
        cy: ((i - mid) / Math.max(1, mid)) ** 2 * avgH * 0.06,
      }));
      const order = [...inOrder].sort((p, q) => Math.abs(q - mid) - Math.abs(p - mid) || p - q);
      return { spots, order };
    }
    case 'cascade': {
      // Stepped down and to the side, each in front of the one before.
      const dx = (a.alignment === 'start' ? -1 : 1) * maxW * 0.16;
      const dy = maxH * 0.14;
      return { spots: boxes.map((_, i) => ({ cx: i * dx, cy: i * dy })), order: inOrder };
    }
  }
}

/** Bounds of the placed boxes (rotated), CSS px. */
function boundsOf(boxes: Box[], spots: Spot[]): Rect {
  const rects = boxes.map((b, i) => {
    const r = rotatedSize(b);
    const s = spots[i] as Spot;
    return { x: s.cx - r.w / 2, y: s.cy - r.h / 2, width: r.w, height: r.h };
  });
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return {
    x,
    y,
    width: Math.max(...rects.map((r) => r.x + r.width)) - x,
    height: Math.max(...rects.map((r) => r.y + r.height)) - y,
  };
}

/**
 * Lays out a scene of several shots: the shots at their natural relative sizes (a phone beside a
 * laptop is phone-sized), one scale for all solved so the arrangement fills the room the canvas
 * leaves beside the title block, the arrangement centred there.
 */
export function buildSceneGroup(
  s: ResolvedStyle,
  arrangement: SceneArrangement,
  shots: { frame: GroupShotFrame; info: ScreenshotInfo }[],
  options: SceneOptions = {},
): SceneGroup {
  const measure: TextMeasurer = options.measurer ?? createEstimatingMeasurer();
  const px = s.output.dpr;
  const room = shadowRoom(s);
  const angles = anglesOf(arrangement.layout, shots.length);
  // Each shot's frame at scale 1 (unrotated): its layout's canvas less the shadow room.
  const natural = shots.map((shot) => {
    const l = layoutScene(shotStyle(s, shot.frame, 1, 0, room), shot.info, {}, measure, NO_EXTRA_ROOM);
    return { w: l.column.frameW, h: l.column.frameH };
  });
  const boxesAt = (k: number): Box[] =>
    natural.map((b, i) => ({ w: b.w * k, h: b.h * k, angle: angles[i] as number }));
  const extentAt = (k: number) => {
    const boxes = boxesAt(k);
    return boundsOf(boxes, arrange(arrangement, boxes).spots);
  };
  // The arrangement's size is linear in k (sizes scale, spacing does not).
  const e1 = extentAt(1);
  const e2 = extentAt(2);
  const fitFlat = (availW: number, availH: number) =>
    Math.min(
      (availW - (2 * e1.width - e2.width)) / (e2.width - e1.width),
      (availH - (2 * e1.height - e2.height)) / (e2.height - e1.height),
    );
  // Seen through the scene's one camera, the group takes the room of its projection: the
  // arrangement's flat extent turned about its centre (what placeCamera centres on the slot).
  const flatCamera = isFlatCamera(s);
  const sizeAt = (k: number) => {
    const e = extentAt(k);
    const p = layoutProjection(s, e.width, e.height);
    return { width: p.width, height: p.height };
  };
  const fits = (k: number, availW: number, availH: number) => {
    const p = sizeAt(k);
    return p.width <= availW && p.height <= availH;
  };
  // The projection is not linear in k (the extent's proportions change with it): bisection.
  const fit = (availW: number, availH: number) => {
    const flat = fitFlat(availW, availH);
    if (flatCamera || !(flat > 0)) return flat;
    let lo = 0;
    let hi = flat;
    while (fits(hi, availW, availH) && hi < 1e4) {
      lo = hi;
      hi *= 2;
    }
    for (let i = 0; i < 48; i++) {
      const mid = (lo + hi) / 2;
      if (fits(mid, availW, availH)) lo = mid;
      else hi = mid;
    }
    return lo;
  };

  const P = s.padding;
  const overlay = s.title_position === 'overlay-bottom';
  const left = s.title_position === 'top-left' || s.title_position === 'bottom-left';
  const titleFirst = s.title_position === 'above' || s.title_position === 'top-left';
  const blockAt = (contentW: number) => {
    const wrap = s.output.width !== null ? (s.output.width - 2 * P) * (left ? 0.7 : 0.86) : 0;
    const block = buildTitleBlock(
      s,
      Math.max(contentW * (left ? 0.7 : 0.86), 240, wrap),
      left ? 'left' : 'center',
      false,
      measure,
    );
    const gap = block ? Math.max(24, Math.round(s.title_size * 0.75)) : 0;
    return { block, blockH: block ? block.height + gap : 0, gap };
  };

  let k: number;
  let W: number;
  let H: number;
  let title: ReturnType<typeof blockAt>;
  if (s.output.width !== null && s.output.height !== null) {
    W = s.output.width;
    H = s.output.height;
    title = blockAt(W - 2 * P);
    k = fit(W - 2 * P, H - 2 * P - title.blockH);
  } else if (s.output.width !== null) {
    // One side given: the shots fill it, the other side follows (or the aspect ratio's).
    W = s.output.width;
    title = blockAt(W - 2 * P);
    k = fit(W - 2 * P, Number.POSITIVE_INFINITY);
    const natural = Math.ceil(sizeAt(k).height + 2 * P + title.blockH);
    H = heightForWidth(W, s.aspect_ratio, natural);
    if (H < natural) k = fit(W - 2 * P, H - 2 * P - title.blockH);
  } else if (s.output.height !== null) {
    H = s.output.height;
    const probe = blockAt(NATURAL_MAX.width);
    k = fit(Number.POSITIVE_INFINITY, H - 2 * P - probe.blockH);
    title = blockAt(sizeAt(k).width);
    k = fit(Number.POSITIVE_INFINITY, H - 2 * P - title.blockH);
    W = Math.ceil(Math.max(sizeAt(k).width, title.block?.width ?? 0) + 2 * P);
  } else {
    k = Math.min(1, fit(NATURAL_MAX.width, NATURAL_MAX.height));
    const extent = sizeAt(k);
    title = blockAt(extent.width);
    const canvas = expandToRatio(
      Math.max(extent.width, title.block?.width ?? 0) + 2 * P,
      extent.height + title.blockH + 2 * P,
      s.aspect_ratio,
    );
    W = canvas.width;
    H = canvas.height;
  }
  if (!(k > 0.02)) {
    throw new ComposeError(
      'no_room',
      `Leaves no room for the shots in a ${W}x${H} output; lower padding, spacing or title sizes`,
    );
  }
  assertOutputSize(W, H, px, options);

  // The column: the title block and the arrangement, centred between the paddings.
  const boxes = boxesAt(k);
  const { spots, order } = arrange(arrangement, boxes);
  const flat = boundsOf(boxes, spots);
  const extent = sizeAt(k);
  const columnH = extent.height + title.blockH;
  const top = P + (H - 2 * P - columnH) / 2;
  const groupY = titleFirst && !overlay ? top + title.blockH : top;
  const groupX = (W - extent.width) / 2;
  const slotX = groupX + extent.width / 2;
  const slotY = groupY + extent.height / 2;
  const placed: PlacedShot[] = order.map((index) => {
    const shot = shots[index] as (typeof shots)[number];
    const scene = buildScene(shotStyle(s, shot.frame, k, angles[index] as number, room), shot.info, {
      measurer: measure,
    });
    const spot = spots[index] as Spot;
    // Laid out flat about the slot's centre; the group layer's camera then turns it there.
    const cx = (slotX + spot.cx - flat.x - flat.width / 2) * px;
    const cy = (slotY + spot.cy - flat.y - flat.height / 2) * px;
    return {
      index,
      scene,
      x: Math.round(cx - scene.canvas.width / 2),
      y: Math.round(cy - scene.canvas.height / 2),
    };
  });

  const canvasPx = { width: Math.round(W * px), height: Math.round(H * px) };
  const layer = groupLayer(s, placed, flat, { x: slotX, y: slotY }, canvasPx, px);

  const texts: SceneText[] = [];
  /** Title block and free text in CSS px: where the watermark must not go. */
  const taken: Rect[] = [];
  const block = title.block;
  if (block) {
    const blockX = left ? Math.min(groupX, P + (W - 2 * P - block.width) / 2) : (W - block.width) / 2;
    const blockY = titleFirst && !overlay ? top : groupY + extent.height + title.gap;
    for (const item of block.items) {
      texts.push(place(item, blockX, blockY, px));
      taken.push({ x: item.x + blockX, y: item.y + blockY, width: item.width, height: item.height });
    }
  }
  const built = buildFreeText(s, W, H, measure);
  const free = built
    ? {
        ...built,
        x: Math.max(0, Math.min(built.x, W - built.width)),
        y: Math.max(0, Math.min(built.y, H - built.height)),
      }
    : null;
  if (free) taken.push(free);
  // The watermark, once for the scene, where a single shot's goes: in the band below (or above)
  // the content at its right edge, clear of the texts; with no band, over the bottom-right
  // corner of the shots, drawn over them (the overlay scene).
  const over: SceneText[] = [];
  const mark = buildWatermark(s, measure);
  if (mark) {
    const text = placeWatermark(mark, {
      canvasHeight: H,
      padding: P,
      contentTop: top,
      contentBottom: top + columnH,
      left: groupX,
      right: groupX + extent.width,
      inner: frontScreen(placed, layer, px) ?? {
        x: groupX,
        y: groupY,
        width: extent.width,
        height: extent.height,
      },
      px,
      avoid: taken,
    });
    if (text.onFrame) {
      delete text.onFrame;
      over.push(text);
    } else texts.push(text);
  }
  if (free) texts.push(place(free, 0, 0, px));

  const unrendered: string[] = [];
  if (s.background_style === 'image') unrendered.push('background');
  const backdrop: Scene = {
    canvas: { ...canvasPx, dpr: px, scale: px },
    background: sceneBackground(s),
    shadows: [],
    frame: { rect: EMPTY, radius: 0, fill: null, border: null },
    screenshot: { rect: EMPTY, radius: 0, crop: { x: 0, y: 0, width: 1, height: 1 } },
    scrim: null,
    texts,
    device: null,
    layer: null,
    unrendered,
  };
  const overlayScene: Scene | null =
    over.length > 0
      ? { ...backdrop, background: { kind: 'transparent' }, texts: over, unrendered: [] }
      : null;
  return {
    backdrop,
    shots: placed,
    layer,
    overlay: overlayScene,
  };
}

/**
 * The group layer (issue 38: one camera for the whole scene): the shots' flat arrangement,
 * `flat` (CSS px, centred on `slot`), turned as one plane by the scene's camera about its
 * centre and blurred across the group by its depth blur; null when neither is set. Its rect
 * holds every shot's canvas (shadows included: they lie on the group's plane and turn with it,
 * as CSS draws the box shadows of a transformed group) and the blur's reach.
 */
function groupLayer(
  s: ResolvedStyle,
  shots: PlacedShot[],
  flat: Rect,
  slot: { x: number; y: number },
  canvas: { width: number; height: number },
  px: number,
): SceneLayer | null {
  const frame: Rect = {
    x: (slot.x - flat.width / 2) * px,
    y: (slot.y - flat.height / 2) * px,
    width: flat.width * px,
    height: flat.height * px,
  };
  const camera = isFlatCamera(s) ? null : placeCamera(s, frame, { x: slot.x * px, y: slot.y * px }, canvas);
  const depthBlur = planDepthBlur(s, frame, camera?.rotation ?? null);
  if (!camera && !depthBlur) return null;
  const reach = Math.ceil(3 * (depthBlur?.sigmas.at(-1) ?? 0)) + 2;
  const rects = shots.map((shot) =>
    outsetRect(
      { x: shot.x, y: shot.y, width: shot.scene.canvas.width, height: shot.scene.canvas.height },
      reach,
    ),
  );
  const x = Math.floor(Math.min(...rects.map((r) => r.x)));
  const y = Math.floor(Math.min(...rects.map((r) => r.y)));
  const rect = {
    x,
    y,
    width: Math.ceil(Math.max(...rects.map((r) => r.x + r.width))) - x,
    height: Math.ceil(Math.max(...rects.map((r) => r.y + r.height))) - y,
  };
  return { rect, camera, depthBlur };
}

/**
 * The screen of the front shot as it lands on the canvas (through a fan's turn and the scene's
 * camera), CSS px: the largest axis-aligned rect inside its corners' quad, or null when the
 * quad is turned too far for one (then the watermark goes by the group's bounds).
 */
function frontScreen(shots: PlacedShot[], layer: SceneLayer | null, px: number): Rect | null {
  const front = shots.at(-1);
  if (!front) return null;
  const { scene, x, y } = front;
  const r = scene.screenshot.rect;
  const own = scene.layer?.camera?.matrix;
  const quad = corners({ ...r }).map((p) => {
    const q = own ? apply(own, p.x, p.y) : p;
    const m = layer?.camera?.matrix;
    return m ? apply(m, q.x + x, q.y + y) : { x: q.x + x, y: q.y + y };
  });
  const [tl, tr, br, bl] = quad as [Point, Point, Point, Point];
  const x0 = Math.max(tl.x, bl.x);
  const x1 = Math.min(tr.x, br.x);
  const y0 = Math.max(tl.y, tr.y);
  const y1 = Math.min(bl.y, br.y);
  if (x1 - x0 < r.width * 0.5 || y1 - y0 < r.height * 0.5) return null;
  return { x: x0 / px, y: y0 / px, width: (x1 - x0) / px, height: (y1 - y0) / px };
}

/** The computed geometry for `resolved_params.canvas` of a scene: each shot's frame and screenshot. */
export function sceneGroupGeometry(group: SceneGroup): Record<string, unknown> {
  const { canvas, texts } = group.backdrop;
  const camera = group.layer?.camera ?? null;
  const moved = (r: Rect, x: number, y: number) => ({ ...r, x: r.x + x, y: r.y + y });
  return {
    width: canvas.width,
    height: canvas.height,
    dpr: canvas.dpr,
    shots: [...group.shots]
      .sort((a, b) => a.index - b.index)
      .map(({ index, scene, x, y }) => ({
        index,
        rect: { x, y, width: scene.canvas.width, height: scene.canvas.height },
        frame: moved(scene.frame.rect, x, y),
        screenshot: moved(scene.screenshot.rect, x, y),
        ...(scene.device ? { device: scene.device.device, device_color: scene.device.color } : {}),
        ...(scene.layer?.camera ? { rotated: true } : {}),
        ...(camera
          ? {
              // Where the frame landed through the scene's camera (a fanned shot's own turn first).
              frame_quad: (scene.layer?.camera?.quad ?? corners(scene.frame.rect)).map((p) =>
                apply(camera.matrix, p.x + x, p.y + y),
              ),
            }
          : {}),
      })),
    texts: texts.map((t) => ({ role: t.role, box: t.box, size: t.size, lines: t.lines })),
  };
}
