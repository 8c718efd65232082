import { hex, shade } from './device-finish.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { insetRadii, insetRect, linearGradient, num, roundedRectPath } from './svg-shapes.ts';

/** What tells one Android phone from another: the band's look and the camera hole. */
export interface AndroidPhoneStyle {
  /** Width of the metal band seen from the front. */
  band: number;
  /** Radius of the punch-hole camera. */
  holeRadius: number;
  /** Side buttons on the right edge as [top, length], in units from the body's top. */
  buttons: readonly (readonly [top: number, length: number])[];
  /** A matte band (flat tone) or a polished one (bright edge highlights). */
  polished: boolean;
}

/**
 * An Android phone from the front, drawn by us: a metal band with side buttons on the right, a
 * thin uniform black bezel, rounded screen corners, and a punch-hole camera centred in the
 * status bar.
 */
export function androidPhoneArt(style: AndroidPhoneStyle) {
  return ({ spec, layout, finish, hole, holeRadii }: FrameArtInput): FrameArt => {
    const c = finish.color;
    const { rect: b, radius } = layout.body;
    const s = layout.screen;
    const band = style.band;
    const holePath = roundedRectPath(hole, holeRadii);
    const edge = style.polished ? 0.4 : 0.18;
    const defs = [
      linearGradient(
        'band',
        [
          [0, shade(c, -0.3)],
          [0.015, shade(c, edge)],
          [0.04, hex(c)],
          [0.5, shade(c, 0.06)],
          [0.96, hex(c)],
          [0.985, shade(c, edge)],
          [1, shade(c, -0.3)],
        ],
        'horizontal',
      ),
      linearGradient(
        'button',
        [
          [0, shade(c, -0.25)],
          [1, shade(c, 0.15)],
        ],
        'horizontal',
      ),
      linearGradient('bezel', [
        [0, '#151517'],
        [1, '#0A0A0B'],
      ]),
      '<radialGradient id="lens" cx="0.4" cy="0.4" r="0.6"><stop offset="0" stop-color="#34415E"/><stop offset="0.55" stop-color="#11151F"/><stop offset="1" stop-color="#040507"/></radialGradient>',
    ].join('');
    const right = b.x + b.width;
    const buttons = style.buttons
      .map(
        ([top, len]) =>
          `<rect x="${num(right - 1)}" y="${num(b.y + top)}" width="3.6" height="${len}" rx="1.4" fill="url(#button)"/>`,
      )
      .join('');
    const bezelRect = insetRect(b, band);
    const barHeight = spec.systemBar?.height ?? 0;
    const camX = s.x + s.width / 2;
    const camY = s.y + Math.max(style.holeRadius + 6, barHeight / 2);
    const body = [
      buttons,
      `<path d="${roundedRectPath(b, radius)}${holePath}" fill-rule="evenodd" fill="url(#band)"/>`,
      `<path d="${roundedRectPath(insetRect(b, 0.6), radius - 0.6)}" fill="none" stroke="${shade(c, -0.4)}" stroke-width="1.2" opacity="0.6"/>`,
      `<path d="${roundedRectPath(bezelRect, radius - band)}${holePath}" fill-rule="evenodd" fill="url(#bezel)"/>`,
      `<path d="${roundedRectPath(insetRect(bezelRect, 0.4), radius - band - 0.4)}" fill="none" stroke="#000" stroke-width="0.8"/>`,
      `<path d="${roundedRectPath(insetRect(hole, -0.6), insetRadii(holeRadii, -0.6))}" fill="none" stroke="#242428" stroke-width="0.6" opacity="0.8"/>`,
      `<circle cx="${num(camX)}" cy="${num(camY)}" r="${num(style.holeRadius)}" fill="#000"/>`,
      `<circle cx="${num(camX)}" cy="${num(camY)}" r="${num(style.holeRadius * 0.55)}" fill="url(#lens)"/>`,
      `<circle cx="${num(camX - style.holeRadius * 0.22)}" cy="${num(camY - style.holeRadius * 0.22)}" r="${num(style.holeRadius * 0.16)}" fill="#8FA3D1" opacity="0.5"/>`,
    ].join('');
    return { defs, body };
  };
}
