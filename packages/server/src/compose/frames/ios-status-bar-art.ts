import { hex } from './device-finish.ts';
import { DYNAMIC_ISLAND } from './frame-catalogue.ts';
import { batteryGlyph, cellularGlyph, glyphRow, glyphRowWidth, wifiGlyph } from './status-glyphs.ts';
import { barLabel, labelWidth, type SystemBarArt, type SystemBarArtInput } from './system-bar.ts';

const TIME = { text: '9:41', size: 17, weight: 600 };

/**
 * The iOS status bar of a Dynamic Island iPhone: the time centred in the left "ear" and signal,
 * Wi-Fi and battery centred in the right one, all on the island's vertical centre.
 */
export function iosStatusBarArt({ screen: s, colors, measure }: SystemBarArtInput): SystemBarArt {
  const fg = hex(colors.foreground);
  const cy = s.y + DYNAMIC_ISLAND.top + DYNAMIC_ISLAND.height / 2;
  const islandLeft = s.x + (s.width - DYNAMIC_ISLAND.width) / 2;
  // Both ears' contents sit at the same distance from their screen edge, mirrored.
  const inset = (islandLeft - s.x) / 2;
  const timeWidth = labelWidth(measure, TIME.text, TIME.weight, TIME.size);
  const glyphs = [cellularGlyph(), wifiGlyph(), batteryGlyph()];
  const gap = 5.5;
  const body = glyphRow(glyphs, s.x + s.width - inset - glyphRowWidth(glyphs, gap) / 2, cy, gap, fg);
  const time = barLabel(TIME.text, s.x + inset - timeWidth / 2, cy, { ...TIME, color: fg }, measure);
  return { body, labels: [time] };
}
