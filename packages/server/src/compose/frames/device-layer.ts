import type { AspectRatio, Device, DeviceLayout } from '@vitrine/contract';
import { cropToRatio, scaleRect } from '../canvas-geometry.ts';
import { parseCssColor } from '../css/css-color.ts';
import type {
  CornerRadii,
  Rect,
  SceneDevice,
  SceneFrame,
  SceneScreenshot,
  SceneText,
} from '../scene-types.ts';
import type { TextMeasurer } from '../text/text-layout.ts';
import { type DeviceFinish, hex, resolveDeviceFinish } from './device-finish.ts';
import { deviceSvg } from './device-svg.ts';
import type { FrameLabel, PageInfo } from './frame-art.ts';
import { type DeviceFrameSpec, FRAME_CATALOGUE } from './frame-catalogue.ts';
import { coverCropTop, type FrameLayout, frameLayout } from './frame-geometry.ts';
import { systemBarColors } from './system-bar.ts';

/** A device sized for a capture, before it is placed: what the scene's layout needs. */
export interface DevicePlan {
  spec: DeviceFrameSpec;
  finish: DeviceFinish;
  frame: FrameLayout;
  layout: DeviceLayout;
  scale: number;
  /** The part of the capture shown on the screen, in capture pixels. */
  crop: Rect;
  /** Device size in CSS px at `device_scale` (before fitting an output size). */
  width: number;
  height: number;
  /** The height kept on the canvas: all of it, or `croppedVisible` in the cropped layouts. */
  visibleHeight: number;
}

/**
 * Sizes a device around a capture. Phones, tablets and laptops have their own screen size
 * (the capture is cover-cropped from the top into the screen below the system bar); a browser
 * window's page area is the capture's CSS size. `frame_ratio` crops the capture first.
 */
export function planDevice(
  request: {
    device: Device;
    device_color: string | null;
    device_scale: number;
    layout: DeviceLayout;
    frame_ratio: AspectRatio;
  },
  shot: { width: number; height: number; dpr?: number },
): DevicePlan {
  const spec = FRAME_CATALOGUE[request.device];
  const finish = resolveDeviceFinish(request.device, request.device_color);
  const base = cropToRatio(shot.width, shot.height, request.frame_ratio);
  const dpr = shot.dpr ?? 1;
  let crop = base;
  // The page area: below the system bar on a fixed screen, the capture's CSS size in a window.
  let page = { width: base.width / dpr, height: base.height / dpr };
  if (spec.fixedScreen) {
    page = { ...spec.viewport };
    const c = coverCropTop(base.width, base.height, page.width / page.height);
    crop = { ...c, x: c.x + base.x, y: c.y + base.y };
  }
  const frame = frameLayout(spec, page.width, page.height);
  const s = request.device_scale;
  const visible = request.layout === 'default' ? 1 : spec.croppedVisible;
  return {
    spec,
    finish,
    frame,
    layout: request.layout,
    scale: s,
    crop,
    width: frame.width * s,
    height: frame.height * s,
    visibleHeight: frame.height * s * visible,
  };
}

/** What a placed device contributes to the Scene. */
export interface PlacedDevice {
  device: SceneDevice;
  frame: SceneFrame;
  screenshot: SceneScreenshot;
  /** The screen in CSS px (for overlay text and watermarks). */
  screenCss: Rect;
  texts: SceneText[];
}

/** Shortens `text` with an ellipsis until it fits `width` at `size`. */
function fitLine(text: string, width: number, label: FrameLabel, measure: TextMeasurer): string {
  const font = { family: 'Inter', weight: label.weight };
  if (measure.lineWidth(text, font, label.size) <= width) return text;
  const chars = [...text];
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure.lineWidth(`${chars.slice(0, mid).join('')}…`, font, label.size) <= width) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? `${chars.slice(0, lo).join('').trimEnd()}…` : '';
}

/**
 * Places a planned device with its top left at (`x`, `y`) CSS px, `k` times its planned size
 * (when an output size is fitted), at `px` output pixels per CSS px: the device layer, the
 * frame and screenshot rects the renderers draw, and the chrome's text layers.
 */
export function placeDevice(
  plan: DevicePlan,
  at: { x: number; y: number; k: number; px: number },
  page: PageInfo,
  measure: TextMeasurer,
): PlacedDevice {
  const { frame: f } = plan;
  const u = plan.scale * at.k;
  const css = (r: Rect): Rect => ({
    x: at.x + r.x * u,
    y: at.y + r.y * u,
    width: r.width * u,
    height: r.height * u,
  });
  const rect = scaleRect(css({ x: 0, y: 0, width: f.width, height: f.height }), at.px);
  const display = scaleRect(css(f.screen), at.px);
  const screenCss = css(f.page);
  const screen = scaleRect(screenCss, at.px);
  const unitPx = u * at.px;
  const corners = f.pageRadii.map((r) => r * unitPx) as CornerRadii;
  const sx = rect.width / f.width;
  const sy = rect.height / f.height;
  const overlap = 1;
  // The bezel's opening is the whole display; the system bar fills its top, down to `overlap`
  // px into the page, so the bar and the bezel both cover the screenshot's edges.
  const hole: Rect = {
    x: (display.x - rect.x + overlap) / sx,
    y: (display.y - rect.y + overlap) / sy,
    width: (display.width - 2 * overlap) / sx,
    height: (display.height - 2 * overlap) / sy,
  };
  const holeRadii = f.screenRadii.map((r) => Math.max(0, r - overlap / sx)) as CornerRadii;
  const barColors = plan.spec.systemBar ? systemBarColors(page.topColor) : null;
  const { svg, labels } = deviceSvg(
    {
      spec: plan.spec,
      layout: f,
      finish: plan.finish,
      hole,
      holeRadii,
      page,
      barColors,
      barOverlap: (screen.y - rect.y + overlap) / sy - f.page.y,
      measure,
    },
    rect.width,
    rect.height,
  );
  const silhouette = f.silhouette.map((p) => ({
    rect: scaleRect(css(p.rect), at.px),
    radius: p.radius * unitPx,
  }));
  const body = silhouette[0] as { rect: Rect; radius: number };
  const texts: SceneText[] = [];
  for (const label of labels) {
    const line = fitLine(label.text, label.box.width, label, measure);
    if (!line) continue;
    texts.push({
      role: 'device',
      box: scaleRect(css(label.box), at.px),
      lines: [line],
      font: { family: 'Inter', weight: label.weight },
      size: label.size * unitPx,
      lineHeight: label.box.height * unitPx,
      letterSpacing: 0,
      color: parseCssColor(label.color) ?? { r: 0, g: 0, b: 0, a: 1 },
      gradientCss: null,
      shadowCss: null,
      align: 'left',
      verticalAlign: 'middle',
      pill: null,
    });
  }
  return {
    device: {
      device: plan.spec.device,
      color: plan.finish.name,
      scale: plan.scale,
      layout: plan.layout,
      rect,
      screen: { rect: screen, corners },
      bar:
        f.bar && barColors
          ? {
              rect: scaleRect(css(f.bar), at.px),
              background: barColors.background,
              foreground: barColors.foreground,
            }
          : null,
      silhouette,
      svg,
      svgKey: `${plan.spec.device}:${plan.finish.name.toLowerCase()}:${rect.width}x${rect.height}:${screen.x - rect.x},${screen.y - rect.y},${screen.width}x${screen.height}${barColors ? `:bar-${hex(barColors.background)}` : ''}`,
    },
    frame: { rect: body.rect, radius: body.radius, fill: null, border: null },
    screenshot: { rect: screen, radius: Math.max(...corners), corners, crop: plan.crop },
    screenCss,
    texts,
  };
}
