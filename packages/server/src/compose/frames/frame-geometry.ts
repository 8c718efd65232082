import type { Rect } from '../scene-types.ts';
import {
  type CornerRadii,
  type DeviceFrameSpec,
  DISPLAY_STAND,
  LAPTOP_BASE,
  WATCH_BAND,
} from './frame-catalogue.ts';

/** A rounded rectangle: one part of a device's outline. */
export interface RoundedRect {
  rect: Rect;
  radius: number;
}

/** A device laid out around a screen of a given size, in device units, origin at the device's top left. */
export interface FrameLayout {
  width: number;
  height: number;
  /** The whole display: the system bar (if any) and the page below it. */
  screen: Rect;
  screenRadii: CornerRadii;
  /** The system bar across the top of the screen, or null (browser windows). */
  bar: Rect | null;
  /** Where the screenshot goes: the screen below the bar. */
  page: Rect;
  /** The page's corners: the screen's, square at the top when a bar sits above it. */
  pageRadii: CornerRadii;
  /** The main body (a laptop's lid, a browser's window). */
  body: RoundedRect;
  /** The outline parts a shadow follows: the body, plus the base for a laptop. */
  silhouette: RoundedRect[];
}

/**
 * Places the body, screen and (for a laptop) base around a page area of `pageWidth` x
 * `pageHeight` device units; the screen adds the device's system bar above it. Fixed-screen
 * devices are called with their viewport; browser windows with the capture's CSS size.
 */
export function frameLayout(spec: DeviceFrameSpec, pageWidth: number, pageHeight: number): FrameLayout {
  const { bezel, outset } = spec;
  const barHeight = spec.systemBar?.height ?? 0;
  const screenWidth = pageWidth;
  const screenHeight = pageHeight + barHeight;
  const body: RoundedRect = {
    rect: {
      x: outset.left,
      y: outset.top,
      width: screenWidth + bezel.left + bezel.right,
      height: screenHeight + bezel.top + bezel.bottom,
    },
    radius: spec.bodyRadius,
  };
  const width = body.rect.width + outset.left + outset.right;
  const height = body.rect.height + outset.top + outset.bottom;
  const silhouette = [body];
  if (spec.family === 'laptop') {
    silhouette.push({
      rect: {
        x: 0,
        y: body.rect.y + body.rect.height + LAPTOP_BASE.hinge,
        width,
        height: LAPTOP_BASE.height,
      },
      radius: LAPTOP_BASE.height / 2,
    });
  }
  const bodyBottom = body.rect.y + body.rect.height;
  if (spec.family === 'desktop') {
    // The neck, then the foot, centred under the display.
    const neckW = body.rect.width * DISPLAY_STAND.neckWidth;
    const footW = body.rect.width * DISPLAY_STAND.footWidth;
    const cx = body.rect.x + body.rect.width / 2;
    silhouette.push(
      { rect: { x: cx - neckW / 2, y: bodyBottom, width: neckW, height: DISPLAY_STAND.neck }, radius: 0 },
      {
        rect: {
          x: cx - footW / 2,
          y: bodyBottom + DISPLAY_STAND.neck,
          width: footW,
          height: DISPLAY_STAND.foot,
        },
        radius: DISPLAY_STAND.foot / 2,
      },
    );
  }
  if (spec.family === 'watch') {
    // The band, above and below the case.
    const bandW = body.rect.width * WATCH_BAND.width;
    const bx = body.rect.x + (body.rect.width - bandW) / 2;
    silhouette.push(
      { rect: { x: bx, y: 0, width: bandW, height: body.rect.y + 20 }, radius: 14 },
      { rect: { x: bx, y: bodyBottom - 20, width: bandW, height: height - bodyBottom + 20 }, radius: 14 },
    );
  }
  const screen: Rect = {
    x: body.rect.x + bezel.left,
    y: body.rect.y + bezel.top,
    width: screenWidth,
    height: screenHeight,
  };
  const [tl, tr, br, bl] = spec.screenRadii;
  return {
    width,
    height,
    screen,
    screenRadii: [tl, tr, br, bl],
    bar: barHeight > 0 ? { ...screen, height: barHeight } : null,
    page: { ...screen, y: screen.y + barHeight, height: pageHeight },
    pageRadii: barHeight > 0 ? [0, 0, br, bl] : [tl, tr, br, bl],
    body,
    silhouette,
  };
}

/**
 * The part of a `width` x `height` capture that covers a screen of aspect `aspect` (w / h):
 * full height and centred when the capture is wider, full width and kept from the top when it
 * is taller (the top of a page is what people recognise).
 */
export function coverCropTop(width: number, height: number, aspect: number): Rect {
  if (width / height > aspect) {
    const w = Math.max(1, Math.min(width, Math.round(height * aspect)));
    return { x: Math.floor((width - w) / 2), y: 0, width: w, height };
  }
  return { x: 0, y: 0, width, height: Math.max(1, Math.min(height, Math.round(width / aspect))) };
}
