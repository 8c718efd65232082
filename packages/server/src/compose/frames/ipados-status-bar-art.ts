import { hex } from './device-finish.ts';
import { batteryGlyph, glyphRowFromRight, wifiGlyph } from './status-glyphs.ts';
import { barLabel, labelWidth, type SystemBarArt, type SystemBarArtInput } from './system-bar.ts';

const TEXT = { size: 13, weight: 600 };
const EDGE = 26;

/**
 * The iPadOS status bar: time and date at the left, Wi-Fi, the charge in percent and the
 * battery at the right.
 */
export function ipadosStatusBarArt({ screen: s, height, colors, measure }: SystemBarArtInput): SystemBarArt {
  const fg = hex(colors.foreground);
  const style = { ...TEXT, color: fg };
  const cy = s.y + height / 2;
  const right = s.x + s.width - EDGE;
  const battery = glyphRowFromRight([batteryGlyph(0.9)], right, cy, 0, fg);
  const percent = '100%';
  const percentX = battery.left - 5 - labelWidth(measure, percent, TEXT.weight, TEXT.size);
  const wifi = glyphRowFromRight([wifiGlyph(0.85)], percentX - 7, cy, 0, fg);
  const time = '9:41';
  const dateX = s.x + EDGE + labelWidth(measure, time, TEXT.weight, TEXT.size) + 6;
  return {
    body: battery.svg + wifi.svg,
    labels: [
      barLabel(time, s.x + EDGE, cy, style, measure),
      barLabel('Mon Jun 9', dateX, cy, style, measure),
      barLabel(percent, percentX, cy, style, measure),
    ],
  };
}
