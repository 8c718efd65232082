/**
 * Text layers put on the canvas: a laid-out block item moved to its place and scaled to output
 * pixels, and the watermark, which sits in the band under the content when it fits there or
 * else as a pill on the screenshot's corner, moving with the frame.
 */
import { scaleRect } from './canvas-geometry.ts';
import { type BlockItem, scaleTextShadow } from './scene-text.ts';
import type { Rect, SceneText } from './scene-types.ts';

/** A block item moved by (dx, dy) in CSS px and scaled to output pixels. */
export function place(item: BlockItem, dx: number, dy: number, px: number): SceneText {
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

/** Where the watermark may go, and what it must keep clear of (CSS px). */
export interface WatermarkRoom {
  canvasHeight: number;
  padding: number;
  /** The content column's top and bottom (frame and title block). */
  contentTop: number;
  contentBottom: number;
  /** The frame's left and right edges. */
  left: number;
  right: number;
  /** The screenshot's area. */
  inner: Rect;
  px: number;
  /** Other text blocks (title block, free text) the watermark must not cover. */
  avoid: Rect[];
}

/** A watermark in a band of the canvas: centred in the band, at most `padding` from the edge. */
function inBand(
  mark: BlockItem,
  band: number,
  edge: 'top' | 'bottom',
  at: WatermarkRoom,
  align: 'left' | 'right',
) {
  const offset = Math.min(band, Math.max(at.padding, mark.height + 16)) / 2 + mark.height / 2;
  const y = edge === 'bottom' ? at.canvasHeight - offset : offset - mark.height;
  const x = align === 'right' ? at.right - mark.width : at.left;
  return { ...mark, x, y };
}

/** The watermark as a pill inside the screenshot's bottom-right corner (moves with the frame). */
function onScreenshotCorner(mark: BlockItem, inner: Rect): BlockItem {
  const m = 10;
  const x = inner.x + inner.width - 12 - mark.width - m;
  const y = inner.y + inner.height - 12 - mark.height - m / 2;
  return {
    ...mark,
    color: { r: 255, g: 255, b: 255, a: 0.92 },
    pill: { fill: { r: 2, g: 6, b: 23, a: 0.55 }, stroke: null, radius: (mark.height + m) / 2 },
    align: 'center',
    x: x - m,
    y: y - m / 2,
    width: mark.width + 2 * m,
    height: mark.height + m,
  };
}

const overlaps = (a: BlockItem, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The watermark, right-aligned with the frame: centred in the band between the content bottom
 * and the canvas bottom when it fits, else a pill inside the screenshot's bottom-right corner.
 * When that place would cover another text block, the next free one: the corner pill, the band
 * above the content, the bottom band at the frame's left edge.
 */
export function placeWatermark(mark: BlockItem, at: WatermarkRoom): SceneText {
  const bottomBand = at.canvasHeight - at.contentBottom;
  const candidates: { item: BlockItem; onFrame: boolean }[] = [];
  if (bottomBand >= mark.height + 16) {
    candidates.push({ item: inBand(mark, bottomBand, 'bottom', at, 'right'), onFrame: false });
  }
  candidates.push({ item: onScreenshotCorner(mark, at.inner), onFrame: true });
  if (at.contentTop >= mark.height + 16) {
    candidates.push({ item: inBand(mark, at.contentTop, 'top', at, 'right'), onFrame: false });
  }
  if (bottomBand >= mark.height + 16) {
    candidates.push({ item: inBand(mark, bottomBand, 'bottom', at, 'left'), onFrame: false });
  }
  const chosen = candidates.find((c) => !at.avoid.some((r) => overlaps(c.item, r))) ?? candidates[0]!;
  const text = place(chosen.item, 0, 0, at.px);
  return chosen.onFrame ? { onFrame: true, ...text } : text;
}
