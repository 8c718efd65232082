import { androidStatusBarArt } from './android-status-bar-art.ts';
import { hex } from './device-finish.ts';
import type { SystemBarKind } from './frame-catalogue.ts';
import { iosStatusBarArt } from './ios-status-bar-art.ts';
import { ipadosStatusBarArt } from './ipados-status-bar-art.ts';
import { macosMenuBarArt } from './macos-menu-bar-art.ts';
import { num, roundedRectPath } from './svg-shapes.ts';
import type { SystemBarArt, SystemBarArtInput } from './system-bar.ts';

const BARS: Readonly<Record<SystemBarKind, (input: SystemBarArtInput) => SystemBarArt>> = {
  'ios-status': iosStatusBarArt,
  'ipados-status': ipadosStatusBarArt,
  'android-status': androidStatusBarArt,
  'macos-menu': macosMenuBarArt,
};

/**
 * Draws the system bar of `input.kind`: its fill in the page's colour (running `overlap` below
 * the bar, under the page's top edge, so no seam shows), then the bar's own shapes, all clipped
 * to the screen's rounded corners (the bar's square corners would poke out of the body), and its
 * text as labels.
 */
export function systemBarArt(input: SystemBarArtInput): SystemBarArt & { defs: string } {
  const { screen: s, height, overlap, colors } = input;
  const bar = BARS[input.kind](input);
  const fill = `<rect x="${num(s.x)}" y="${num(s.y)}" width="${num(s.width)}" height="${num(height + overlap)}" fill="${hex(colors.background)}"/>`;
  return {
    defs: `<clipPath id="system-bar-clip"><path d="${roundedRectPath(input.screen, input.radii)}"/></clipPath>`,
    body: `<g clip-path="url(#system-bar-clip)">${fill}${bar.body}</g>`,
    labels: bar.labels,
  };
}
