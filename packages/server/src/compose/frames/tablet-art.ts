import { hex, shade } from './device-finish.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { insetRect, linearGradient, num, roundedRectPath } from './svg-shapes.ts';

/**
 * iPad Pro (M4) in portrait: a thin aluminium edge, a uniform black bezel, rounded display
 * corners, the front camera centred on the long (right) edge, top and volume buttons.
 */
export function tabletArt({ layout, finish, hole, holeRadii }: FrameArtInput): FrameArt {
  const c = finish.color;
  const { rect: b, radius } = layout.body;
  const s = layout.screen;
  const rim = 3.5;
  const holePath = roundedRectPath(hole, holeRadii);
  const defs = [
    linearGradient('edge', [
      [0, shade(c, 0.35)],
      [0.5, hex(c)],
      [1, shade(c, -0.2)],
    ]),
    linearGradient(
      'button',
      [
        [0, shade(c, -0.25)],
        [1, shade(c, 0.2)],
      ],
      'vertical',
    ),
    linearGradient('bezel', [
      [0, '#151517'],
      [1, '#0B0B0C'],
    ]),
  ].join('');
  const right = b.x + b.width;
  const camX = s.x + s.width + (right - s.x - s.width) / 2;
  const camY = s.y + s.height / 2;
  const body = [
    `<rect x="${num(right - 250)}" y="${num(b.y - 3)}" width="90" height="5" rx="1.5" fill="url(#button)"/>`,
    `<rect x="${num(right - 2)}" y="${num(b.y + 150)}" width="5" height="70" rx="1.5" fill="${shade(c, -0.1)}"/>`,
    `<rect x="${num(right - 2)}" y="${num(b.y + 232)}" width="5" height="70" rx="1.5" fill="${shade(c, -0.1)}"/>`,
    `<path d="${roundedRectPath(b, radius)}${holePath}" fill-rule="evenodd" fill="url(#edge)"/>`,
    `<path d="${roundedRectPath(insetRect(b, 0.6), radius - 0.6)}" fill="none" stroke="${shade(c, -0.4)}" stroke-width="1.2" opacity="0.6"/>`,
    `<path d="${roundedRectPath(insetRect(b, rim), radius - rim)}${holePath}" fill-rule="evenodd" fill="url(#bezel)"/>`,
    `<path d="${roundedRectPath(insetRect(b, rim + 0.4), radius - rim - 0.4)}" fill="none" stroke="#000" stroke-width="0.8"/>`,
    `<circle cx="${num(camX)}" cy="${num(camY)}" r="5.2" fill="#16181D"/>`,
    `<circle cx="${num(camX)}" cy="${num(camY)}" r="2.6" fill="#1F2B48"/>`,
    `<circle cx="${num(camX - 1)}" cy="${num(camY - 1)}" r="0.9" fill="#8EA2D3" opacity="0.55"/>`,
  ].join('');
  return { defs, body };
}
