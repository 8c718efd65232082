import { browserWindowArt } from './browser-window-art.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { num } from './svg-shapes.ts';

const TRAFFIC_LIGHTS = [
  ['#FF5F57', '#E0443E'],
  ['#FEBC2E', '#DEA123'],
  ['#28C840', '#1AAB29'],
] as const;

/** A macOS browser window: traffic lights at the left of the tab strip, vertical menu dots. */
export function browserMacosArt(input: FrameArtInput): FrameArt {
  return browserWindowArt(input, {
    device: 'browser-macos',
    tabX: 82,
    tabMaxWidth: 240,
    tabTop: 8,
    globeDx: 17,
    closeDx: 16,
    closeSize: 7,
    newTabStrokeWidth: 1.5,
    navX: [24, 54, 84],
    fieldX: 110,
    fieldInset: 6,
    fieldRightGap: 52,
    titleDx: 31,
    titleRoom: 56,
    windowControls: (_width, tabStrip) =>
      TRAFFIC_LIGHTS.map(
        ([fill, stroke], i) =>
          `<circle cx="${20 + i * 20}" cy="${tabStrip / 2}" r="6" fill="${fill}" stroke="${stroke}" stroke-width="0.6"/>`,
      ).join(''),
    menuDots: (width, cy, p) =>
      [-5, 0, 5]
        .map((d) => `<circle cx="${num(width - 24)}" cy="${cy + d}" r="1.6" fill="${p.muted}"/>`)
        .join(''),
  });
}
