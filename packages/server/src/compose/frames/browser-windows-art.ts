import { closeGlyph } from './browser-chrome.ts';
import { browserWindowArt } from './browser-window-art.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { num } from './svg-shapes.ts';

/** Vertical centre of the caption buttons in the tab strip. */
const CAPTION_Y = 17;

/**
 * A Windows 11 browser window: the active tab at the left of the tab strip, minimise /
 * maximise / close caption buttons at the right, horizontal menu dots.
 */
export function browserWindowsArt(input: FrameArtInput): FrameArt {
  return browserWindowArt(input, {
    device: 'browser-windows',
    tabX: 14,
    tabMaxWidth: 250,
    tabTop: 7,
    globeDx: 18,
    closeDx: 17,
    closeSize: 7.5,
    newTabStrokeWidth: 1.4,
    navX: [24, 56, 88],
    fieldX: 112,
    fieldInset: 7,
    fieldRightGap: 56,
    titleDx: 32,
    titleRoom: 58,
    windowControls: (width, _tabStrip, p) =>
      [
        `<path d="M${num(width - 138 + 18)},${CAPTION_Y}H${num(width - 138 + 28)}" stroke="${p.text}" stroke-width="1"/>`,
        `<rect x="${num(width - 92 + 18.5)}" y="${CAPTION_Y - 4.5}" width="9" height="9" rx="1.5" fill="none" stroke="${p.text}" stroke-width="1"/>`,
        closeGlyph(width - 23, CAPTION_Y, 9.5, p.text, 1),
      ].join(''),
    menuDots: (width, cy, p) =>
      [-6, 0, 6]
        .map((d) => `<circle cx="${num(width - 26 + d)}" cy="${cy}" r="1.5" fill="${p.muted}"/>`)
        .join(''),
  });
}
