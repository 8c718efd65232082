import type { Device, DeviceLayout, TextAlign, TextVerticalAlign } from '@vitrine/contract';
import type { BorderKind } from './border-presets.ts';
import type { Mat3 } from './camera/camera-math.ts';
import type { PlacedCamera } from './camera/scene-camera.ts';
import type { Rgba } from './css/css-color.ts';
import type { ParsedGradient } from './css/css-gradient.ts';
import type { SceneDepthBlur } from './effects/depth-blur-mask.ts';

/** An axis-aligned rectangle in output pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What fills the canvas behind everything. */
export type SceneBackground =
  | { kind: 'gradient'; gradient: ParsedGradient; css: string }
  | { kind: 'solid'; color: Rgba }
  | { kind: 'transparent' }
  /** A hosted (`background`) or custom (`background_image_url`) image, fetched by the caller, covering the canvas. */
  | {
      kind: 'image';
      source: { type: 'catalogue'; ref: string } | { type: 'url'; url: string };
      fallback: Rgba;
    };

/** One blurred rounded rectangle under the frame (a CSS box-shadow, spread and offset applied). */
export interface SceneShadow {
  rect: Rect;
  radius: number;
  /** Gaussian sigma in px (CSS blur radius / 2). */
  sigma: number;
  /** Colour with the opacity folded into alpha. */
  color: Rgba;
  /**
   * With a camera: the homography (flat px -> canvas px) the shadow is drawn through, onto the
   * background plane; `rect` is then the flat, un-offset shadow and nothing is cut out under
   * the frame.
   */
  matrix?: Mat3;
}

export interface SceneBorder {
  kind: BorderKind;
  /** px; `rim` borders are drawn inside the frame edge, others occupy the frame's outer band. */
  width: number;
  color: Rgba;
}

/** The framed screenshot's outer box: inset mat + border around the screenshot. */
export interface SceneFrame {
  rect: Rect;
  radius: number;
  /** Inset mat colour; `auto` = picked from the screenshot's edge pixels (`inset_balance`). */
  fill: Rgba | 'auto' | null;
  border: SceneBorder | null;
}

/** Per-corner radii in px: [top-left, top-right, bottom-right, bottom-left]. */
export type CornerRadii = [number, number, number, number];

export interface SceneScreenshot {
  /** Where it lands on the canvas. */
  rect: Rect;
  radius: number;
  /** Per-corner radii overriding `radius` (a device screen: a browser page has square top corners). */
  corners?: CornerRadii;
  /** The part of the capture used (frame_ratio), in the capture's own pixels. */
  crop: Rect;
}

export interface FontRef {
  family: string;
  weight: number;
}

/** A block of already-wrapped text: renderers draw `lines` as given, never re-wrap. */
export interface SceneText {
  /** `device`: chrome text of a device frame (tab title, address bar), drawn above the frame. */
  role: 'title' | 'subtitle' | 'badge' | 'watermark' | 'text' | 'device';
  /** The box the lines are laid out in (px). */
  box: Rect;
  lines: string[];
  font: FontRef;
  size: number;
  lineHeight: number;
  letterSpacing: number;
  color: Rgba;
  /** CSS gradient filling the glyphs (overrides `color`). */
  gradientCss: string | null;
  /** CSS text-shadow, px already scaled. */
  shadowCss: string | null;
  align: TextAlign;
  verticalAlign: TextVerticalAlign;
  /** A pill behind the text (badge, watermark over a screenshot). */
  pill: { fill: Rgba; stroke: Rgba | null; radius: number } | null;
  /** Part of the frame layer (device chrome, overlay title, watermark on the screenshot): moves and blurs with it. */
  onFrame?: true;
}

/**
 * The frame layer when it is transformed or blurred: frame, screenshot, rim, scrim, device and
 * the texts marked `onFrame`, drawn flat (at their Scene rects) into `rect`, then blurred by
 * `depthBlur`, then mapped onto the canvas by `camera.matrix`.
 */
export interface SceneLayer {
  /** Flat bounds of the layer in px (whole pixels), with room for blur and anti-aliasing. */
  rect: Rect;
  camera: PlacedCamera | null;
  depthBlur: SceneDepthBlur | null;
}

/** A darkening gradient over the bottom of the screenshot, under `overlay-bottom` text. */
export interface SceneScrim {
  rect: Rect;
  /** Matches the screenshot's bottom corners. */
  radius: number;
  color: Rgba;
}

/**
 * A device frame, self-describing so any renderer can draw it: shadows first (already in
 * `Scene.shadows`, following `silhouette`), then the screenshot into `screen` (the same rect
 * and corners as `Scene.screenshot`), then `svg` placed at `rect`. The SVG's screen opening is
 * transparent and slightly smaller than `screen`, so the bezel overlaps the screenshot's edge.
 * In cropped layouts `rect` runs past the canvas edge; clip to the canvas.
 */
export interface SceneDevice {
  device: Device;
  /** The finish: a named `device_color` of the device, or the CSS colour used as a tint. */
  color: string;
  scale: number;
  layout: DeviceLayout;
  /** The whole device (body, buttons, a laptop's base) in output px. */
  rect: Rect;
  /** Where the screenshot goes (the screen below the system bar), output px. */
  screen: { rect: Rect; corners: CornerRadii };
  /**
   * The operating system's bar across the top of the screen (status bar, menu bar), drawn in
   * `svg` with its text in the device's texts; null for browser windows.
   */
  bar: { rect: Rect; background: Rgba; foreground: Rgba } | null;
  /** Outline parts (the body; a laptop's lid and base) in output px. */
  silhouette: { rect: Rect; radius: number }[];
  /** SVG document sized `rect.width` x `rect.height` px; inline it or rasterise it as is. */
  svg: string;
  /** Identifies `svg` (device, finish, size) for caching its raster. */
  svgKey: string;
}

/**
 * Everything a renderer needs, in output pixels: the pure result of `buildScene`. Both compose
 * modes draw the same Scene; nothing in it depends on a renderer.
 */
export interface Scene {
  canvas: {
    width: number;
    height: number;
    dpr: number /** px per CSS px of styling (dpr x fit) */;
    scale: number;
  };
  background: SceneBackground;
  shadows: SceneShadow[];
  frame: SceneFrame;
  screenshot: SceneScreenshot;
  scrim: SceneScrim | null;
  texts: SceneText[];
  device: SceneDevice | null;
  /** Set when the frame layer has a camera transform or depth blur; null draws it flat in place. */
  layer: SceneLayer | null;
  /** Fields accepted but not rendered by this version, reported as warnings. */
  unrendered: string[];
}
