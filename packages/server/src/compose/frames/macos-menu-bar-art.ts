import { hex } from './device-finish.ts';
import type { FrameLabel } from './frame-art.ts';
import { batteryGlyph, glyphRowFromRight, searchGlyph, wifiGlyph } from './status-glyphs.ts';
import { num } from './svg-shapes.ts';
import { barLabel, labelWidth, type SystemBarArt, type SystemBarArtInput } from './system-bar.ts';

/** A browser's menus: generic words, the app's name first in bold; no logo or other artwork. */
const MENUS = ['Safari', 'File', 'Edit', 'View', 'History', 'Bookmarks', 'Window', 'Help'];
const SIZE = 13.5;
const CLOCK = 'Mon Jun 9 9:41 AM';

/**
 * The macOS menu bar across the notch strip: a faint frosted sheen over the page's colour (the
 * bar is translucent over what is behind it), the menus at the left, status items and the clock
 * at the right, a hairline along its bottom edge.
 */
export function macosMenuBarArt({ screen: s, height, colors, measure }: SystemBarArtInput): SystemBarArt {
  const fg = hex(colors.foreground);
  const light = colors.foreground.r === 0;
  const cy = s.y + height / 2;
  const labels: FrameLabel[] = [];
  let x = s.x + 22;
  for (const [i, word] of MENUS.entries()) {
    const weight = i === 0 ? 700 : 400;
    labels.push(barLabel(word, x, cy, { size: SIZE, weight, color: fg }, measure));
    x += labelWidth(measure, word, weight, SIZE) + 19;
  }
  const clockX = s.x + s.width - 18 - labelWidth(measure, CLOCK, 400, SIZE);
  labels.push(barLabel(CLOCK, clockX, cy, { size: SIZE, weight: 400, color: fg }, measure));
  const icons = glyphRowFromRight(
    [batteryGlyph(0.95), wifiGlyph(0.9), searchGlyph()],
    clockX - 20,
    cy,
    18,
    fg,
  );
  const body = [
    `<rect x="${num(s.x)}" y="${num(s.y)}" width="${num(s.width)}" height="${num(height)}" fill="${light ? '#FFFFFF' : '#000000'}" opacity="${light ? 0.28 : 0.18}"/>`,
    `<rect x="${num(s.x)}" y="${num(s.y + height - 1)}" width="${num(s.width)}" height="1" fill="${fg}" opacity="0.1"/>`,
    icons.svg,
  ].join('');
  return { body, labels };
}
