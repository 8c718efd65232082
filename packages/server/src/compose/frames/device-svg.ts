import type { Device } from '@vitrine/contract';
import { browserMacosArt } from './browser-macos-art.ts';
import { browserWindowsArt } from './browser-windows-art.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { laptopArt } from './laptop-art.ts';
import { phoneArt } from './phone-art.ts';
import { svgDocument } from './svg-shapes.ts';
import { tabletArt } from './tablet-art.ts';

const ART: Readonly<Record<Device, (input: FrameArtInput) => FrameArt>> = {
  'iphone-16-pro': phoneArt,
  'macbook-pro-16': laptopArt,
  'ipad-pro-m4': tabletArt,
  'browser-macos': browserMacosArt,
  'browser-windows': browserWindowsArt,
};

/**
 * Draws a device frame as a standalone SVG document of `pxWidth` x `pxHeight` (the device's
 * rect on the canvas) with the screen left transparent, plus the chrome's text labels (in
 * device units) for the renderers' text path.
 */
export function deviceSvg(
  input: FrameArtInput,
  pxWidth: number,
  pxHeight: number,
): { svg: string; labels: NonNullable<FrameArt['labels']> } {
  const art = ART[input.spec.device](input);
  return {
    svg: svgDocument(pxWidth, pxHeight, input.layout.width, input.layout.height, art.defs, art.body),
    labels: art.labels ?? [],
  };
}
