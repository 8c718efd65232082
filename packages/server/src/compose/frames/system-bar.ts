import { type Rgba, relativeLuminance } from '../css/css-color.ts';
import type { Rect } from '../scene-types.ts';
import type { TextMeasurer } from '../text/text-layout.ts';
import type { FrameLabel } from './frame-art.ts';
import type { CornerRadii, SystemBarKind } from './frame-catalogue.ts';

/** The bar's fill and the colour of its text and glyphs. */
export interface SystemBarColors {
  background: Rgba;
  foreground: Rgba;
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };

/**
 * The bar takes the colour of the page's top edge, as iOS and macOS tint their bars from what
 * is under them, and black or white glyphs, whichever contrasts more (WCAG contrast ratio):
 * a dark site gets a dark bar with white glyphs. Without a sample (no pixels), a white bar.
 */
export function systemBarColors(pageTop: Rgba | null): SystemBarColors {
  const background = pageTop ? { ...pageTop, a: 1 } : WHITE;
  const l = relativeLuminance(background);
  const onBlack = (l + 0.05) / 0.05;
  const onWhite = 1.05 / (l + 0.05);
  return { background, foreground: onBlack >= onWhite ? BLACK : WHITE };
}

/** What a system bar drawing receives; lengths in device units. */
export interface SystemBarArtInput {
  kind: SystemBarKind;
  /** The screen, for the bar's width and the notch or island centred on it. */
  screen: Rect;
  /** The screen's corner radii: the bar is clipped to them. */
  radii: CornerRadii;
  /** The bar's own height (the safe-area inset). */
  height: number;
  /** How far the fill runs below the bar, under the page's top edge, so no seam shows. */
  overlap: number;
  colors: SystemBarColors;
  /** Lays out the bar's text with the renderers' own font metrics. */
  measure: TextMeasurer;
}

/** A bar's drawing: SVG shapes (fill and glyphs) and its text as labels. */
export interface SystemBarArt {
  body: string;
  labels: FrameLabel[];
}

/** The width of a label's text in Inter, the face the renderers draw labels in. */
export function labelWidth(measure: TextMeasurer, text: string, weight: number, size: number): number {
  return measure.lineWidth(text, { family: 'Inter', weight }, size);
}

/**
 * A label whose text starts at `x`, vertically centred on `cy`. The box is slightly wider than
 * the measured text so the renderers' fitting never shortens it.
 */
export function barLabel(
  text: string,
  x: number,
  cy: number,
  style: { size: number; weight: number; color: string },
  measure: TextMeasurer,
): FrameLabel {
  const width = labelWidth(measure, text, style.weight, style.size);
  const height = Math.ceil(style.size * 1.4);
  return { text, box: { x, y: cy - height / 2, width: width + style.size * 0.5, height }, ...style };
}
