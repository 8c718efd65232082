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

/**
 * The watermark, right-aligned with the frame at `right`: centred in the band between the content
 * bottom and the canvas bottom when it fits, else a pill inside the screenshot's bottom-right corner.
 */
export function placeWatermark(
  mark: BlockItem,
  at: { H: number; P: number; contentBottom: number; right: number; inner: Rect; px: number },
): SceneText {
  const { H, P, contentBottom, right, inner, px } = at;
  const onFrame = { onFrame: true } as const;
  const band = H - contentBottom;
  if (band >= mark.height + 16) {
    const y = H - Math.min(band, Math.max(P, mark.height + 16)) / 2 - mark.height / 2;
    return place({ ...mark, x: right - mark.width, y }, 0, 0, px);
  } else {
    const m = 10;
    const x = inner.x + inner.width - 12 - mark.width - m;
    const y = inner.y + inner.height - 12 - mark.height - m / 2;
    return {
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
    };
  }
}
