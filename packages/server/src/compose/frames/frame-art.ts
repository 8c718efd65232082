import type { Rect } from '../scene-types.ts';
import type { DeviceFinish } from './device-finish.ts';
import type { CornerRadii, DeviceFrameSpec } from './frame-catalogue.ts';
import type { FrameLayout } from './frame-geometry.ts';

/** What every device drawing receives; lengths in device units. */
export interface FrameArtInput {
  spec: DeviceFrameSpec;
  layout: FrameLayout;
  finish: DeviceFinish;
  /** The transparent opening: the screen shrunk slightly so the bezel overlaps the screenshot edge. */
  hole: Rect;
  holeRadii: CornerRadii;
  /** The captured page, for browser chrome (address bar, tab). */
  page: PageInfo;
}

/** The captured page as the chrome shows it. */
export interface PageInfo {
  url: string | null;
  title: string | null;
}

/** Text drawn as part of the chrome (tab title, address bar URL), laid out in device units. */
export interface FrameLabel {
  text: string;
  box: Rect;
  size: number;
  weight: number;
  color: string;
}

/** One device's drawing: SVG defs and body in device units. */
export interface FrameArt {
  defs: string;
  body: string;
  /** Chrome text, drawn by the renderers' text path (not inside the SVG, so fonts match). */
  labels?: FrameLabel[];
}
