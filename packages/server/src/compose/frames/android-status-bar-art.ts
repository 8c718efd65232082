import { hex } from './device-finish.ts';
import { batteryGlyph, cellularGlyph, glyphRowFromRight, wifiGlyph } from './status-glyphs.ts';
import { barLabel, type SystemBarArt, type SystemBarArtInput } from './system-bar.ts';

/**
 * Android's status bar: the time at the left, Wi-Fi, signal and battery at the right, both on
 * the bar's vertical centre (where a phone's punch-hole camera sits), inset from the rounded
 * corners in proportion to the bar's height.
 */
export function androidStatusBarArt({ screen: s, height, colors, measure }: SystemBarArtInput): SystemBarArt {
  const fg = hex(colors.foreground);
  const cy = s.y + height / 2;
  const size = Math.min(15, Math.max(12, height * 0.34));
  const scale = size / 15;
  const edge = Math.max(18, height * 0.6);
  const icons = glyphRowFromRight(
    [wifiGlyph(0.85 * scale), cellularGlyph(0.9 * scale), batteryGlyph(0.9 * scale)],
    s.x + s.width - edge,
    cy,
    6 * scale,
    fg,
  );
  const time = barLabel('9:41', s.x + edge, cy, { size, weight: 500, color: fg }, measure);
  return { body: icons.svg, labels: [time] };
}
