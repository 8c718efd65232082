import type { Device } from '@vitrine/contract';
import { androidPhoneArt } from './android-phone-art.ts';
import { browserMacosArt } from './browser-macos-art.ts';
import { browserMinimalArt } from './browser-minimal-art.ts';
import { browserWindowsArt } from './browser-windows-art.ts';
import { displayArt } from './display-art.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { laptopArt } from './laptop-art.ts';
import { phoneArt } from './phone-art.ts';
import { svgDocument } from './svg-shapes.ts';
import { systemBarColors } from './system-bar.ts';
import { systemBarArt } from './system-bar-art.ts';
import { tabletArt } from './tablet-art.ts';
import { terminalArt } from './terminal-art.ts';
import { watchArt } from './watch-art.ts';

const ART: Readonly<Record<Device, (input: FrameArtInput) => FrameArt>> = {
  'iphone-16-pro': phoneArt,
  'macbook-pro-16': laptopArt,
  'ipad-pro-m4': tabletArt,
  'browser-macos': browserMacosArt,
  'browser-windows': browserWindowsArt,
  'iphone-16': phoneArt,
  'pixel-9': androidPhoneArt({
    band: 4,
    holeRadius: 7,
    buttons: [
      [196, 64],
      [292, 104],
    ],
    polished: false,
  }),
  'galaxy-s25': androidPhoneArt({
    band: 3.2,
    holeRadius: 6,
    buttons: [
      [168, 92],
      [280, 48],
    ],
    polished: true,
  }),
  'ipad-air-11': tabletArt,
  'android-tablet': tabletArt,
  'macbook-air-13': laptopArt,
  'laptop-windows': laptopArt,
  'desktop-display': displayArt,
  watch: watchArt,
  'browser-minimal': browserMinimalArt,
  terminal: terminalArt,
};

/**
 * Draws a device frame as a standalone SVG document of `pxWidth` x `pxHeight` (the device's
 * rect on the canvas) with the page area left transparent, plus the chrome's text labels (in
 * device units) for the renderers' text path. The system bar goes first, so the bezel covers
 * its corners and the island or notch sits on it.
 */
export function deviceSvg(
  input: FrameArtInput,
  pxWidth: number,
  pxHeight: number,
): { svg: string; labels: NonNullable<FrameArt['labels']> } {
  const { spec, layout } = input;
  const bar =
    spec.systemBar && layout.bar
      ? systemBarArt({
          kind: spec.systemBar.kind,
          screen: layout.screen,
          radii: layout.screenRadii,
          height: layout.bar.height,
          overlap: input.barOverlap,
          colors: input.barColors ?? systemBarColors(null),
          measure: input.measure,
        })
      : null;
  const art = ART[spec.device](input);
  return {
    svg: svgDocument(
      pxWidth,
      pxHeight,
      layout.width,
      layout.height,
      `${bar?.defs ?? ''}${art.defs}`,
      `${bar?.body ?? ''}${art.body}`,
    ),
    labels: [...(bar?.labels ?? []), ...(art.labels ?? [])],
  };
}
