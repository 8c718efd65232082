import type { Rgba } from '../css/css-color.ts';
import type { Rect } from '../scene-types.ts';
import type { TextMeasurer } from '../text/text-layout.ts';
import type { DeviceFinish } from './device-finish.ts';
import type { CornerRadii, DeviceFrameSpec } from './frame-catalogue.ts';
import type { FrameLayout } from './frame-geometry.ts';
import type { SystemBarColors } from './system-bar.ts';

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
  /** The system bar's colours, when the device has one (`spec.systemBar`). */
  barColors: SystemBarColors | null;
  /** How far the bar's fill runs under the page's top edge (the overlap of the bezel). */
  barOverlap: number;
  /** Lays out chrome text with the renderers' font metrics. */
  measure: TextMeasurer;
}

/** The captured page as the chrome shows it. */
export interface PageInfo {
  url: string | null;
  title: string | null;
  /** Mean colour of the page's top edge: the system bar takes it (null: not sampled). */
  topColor: Rgba | null;
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
