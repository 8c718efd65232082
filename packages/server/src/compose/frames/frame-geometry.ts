import type { Rect } from '../scene-types.ts';
import { type CornerRadii, type DeviceFrameSpec, LAPTOP_BASE } from './frame-catalogue.ts';

/** A rounded rectangle: one part of a device's outline. */
export interface RoundedRect {
  rect: Rect;
  radius: number;
}

/** A device laid out around a screen of a given size, in device units, origin at the device's top left. */
export interface FrameLayout {
  width: number;
  height: number;
  /** Where the screenshot goes. */
  screen: Rect;
  screenRadii: CornerRadii;
  /** The main body (a laptop's lid, a browser's window). */
  body: RoundedRect;
  /** The outline parts a shadow follows: the body, plus the base for a laptop. */
  silhouette: RoundedRect[];
}

/**
 * Places the body, screen and (for a laptop) base around a screen of `screenWidth` x
 * `screenHeight` device units. Fixed-screen devices are called with their viewport; browser
 * windows with the capture's CSS size.
 */
export function frameLayout(spec: DeviceFrameSpec, screenWidth: number, screenHeight: number): FrameLayout {
  const { bezel, outset } = spec;
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
  return {
    width,
    height,
    screen: {
      x: body.rect.x + bezel.left,
      y: body.rect.y + bezel.top,
      width: screenWidth,
      height: screenHeight,
    },
    screenRadii: [...spec.screenRadii],
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
