import { hex, shade } from './device-finish.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { DYNAMIC_ISLAND } from './frame-catalogue.ts';
import { insetRadii, insetRect, linearGradient, num, roundedRectPath } from './svg-shapes.ts';

/** Side buttons as [side, top, length, protrusion], in units from the body's top. */
const BUTTONS: [side: 'left' | 'right', top: number, length: number, out: number][] = [
  ['left', 176, 34, 2.6],
  ['left', 246, 62, 2.6],
  ['left', 324, 62, 2.6],
  ['right', 268, 98, 2.6],
  ['right', 592, 62, 1.4],
];

/**
 * iPhone 16 Pro from the front: a brushed titanium band with soft specular edges and antenna
 * breaks, side buttons, a thin black bezel around a screen with rounded corners, and the
 * Dynamic Island with its camera lens.
 */
export function phoneArt({ layout, finish, hole, holeRadii }: FrameArtInput): FrameArt {
  const c = finish.color;
  const { rect: b, radius } = layout.body;
  const s = layout.screen;
  const band = 4.5;
  const holePath = roundedRectPath(hole, holeRadii);
  const defs = [
    linearGradient(
      'band',
      [
        [0, shade(c, -0.35)],
        [0.012, shade(c, 0.35)],
        [0.03, hex(c)],
        [0.5, shade(c, 0.1)],
        [0.97, hex(c)],
        [0.988, shade(c, 0.35)],
        [1, shade(c, -0.35)],
      ],
      'horizontal',
    ),
    linearGradient(
      'button',
      [
        [0, shade(c, -0.3)],
        [0.5, shade(c, 0.2)],
        [1, shade(c, -0.1)],
      ],
      'horizontal',
    ),
    linearGradient('bezel', [
      [0, '#18181A'],
      [0.5, '#0B0B0C'],
      [1, '#141416'],
    ]),
    '<radialGradient id="lens" cx="0.4" cy="0.4" r="0.6"><stop offset="0" stop-color="#3A4A6B"/><stop offset="0.5" stop-color="#141A2A"/><stop offset="1" stop-color="#05060A"/></radialGradient>',
  ].join('');
  const buttons = BUTTONS.map(([side, top, len, out]) => {
    const x = side === 'left' ? b.x - out : b.x + b.width - 1;
    return `<rect x="${num(x)}" y="${b.y + top}" width="${num(out + 1)}" height="${len}" rx="${num(Math.min(out, 1.4))}" fill="url(#button)"/>`;
  }).join('');
  const bezelRect = insetRect(b, band);
  const antenna = [
    [b.x, b.y + 110],
    [b.x + b.width - band, b.y + 110],
    [b.x, b.y + b.height - 110],
    [b.x + b.width - band, b.y + b.height - 110],
  ]
    .map(
      ([x, y]) =>
        `<rect x="${num(x as number)}" y="${y}" width="${band}" height="1.6" fill="${shade(c, -0.22)}"/>`,
    )
    .join('');
  const topAntenna = [b.x + 96, b.x + b.width - 96]
    .map((x) => `<rect x="${num(x)}" y="${b.y}" width="1.6" height="${band}" fill="${shade(c, -0.22)}"/>`)
    .join('');
  const island = { w: DYNAMIC_ISLAND.width, h: DYNAMIC_ISLAND.height };
  const ix = s.x + (s.width - island.w) / 2;
  const iy = s.y + DYNAMIC_ISLAND.top;
  const body = [
    buttons,
    `<path d="${roundedRectPath(b, radius)}${holePath}" fill-rule="evenodd" fill="url(#band)"/>`,
    antenna,
    topAntenna,
    `<path d="${roundedRectPath(insetRect(b, 0.6), radius - 0.6)}" fill="none" stroke="${shade(c, -0.45)}" stroke-width="1.2" opacity="0.7"/>`,
    `<path d="${roundedRectPath(insetRect(b, 1.6), radius - 1.6)}" fill="none" stroke="${shade(c, 0.55)}" stroke-width="0.8" opacity="0.55"/>`,
    `<path d="${roundedRectPath(bezelRect, radius - band)}${holePath}" fill-rule="evenodd" fill="url(#bezel)"/>`,
    `<path d="${roundedRectPath(insetRect(bezelRect, 0.4), radius - band - 0.4)}" fill="none" stroke="#000" stroke-width="0.8"/>`,
    `<path d="${roundedRectPath(insetRect(hole, -0.6), insetRadii(holeRadii, -0.6))}" fill="none" stroke="#26262A" stroke-width="0.6" opacity="0.8"/>`,
    `<rect x="${num(ix)}" y="${num(iy)}" width="${island.w}" height="${island.h}" rx="${island.h / 2}" fill="#000"/>`,
    `<circle cx="${num(ix + island.w - island.h / 2 - 2)}" cy="${num(iy + island.h / 2)}" r="6.6" fill="url(#lens)"/>`,
    `<circle cx="${num(ix + island.w - island.h / 2 - 4)}" cy="${num(iy + island.h / 2 - 2)}" r="1.3" fill="#8FA3D1" opacity="0.55"/>`,
  ].join('');
  return { defs, body };
}
