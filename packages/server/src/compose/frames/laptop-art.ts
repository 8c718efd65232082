import { hex, shade } from './device-finish.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { LAPTOP_BASE, LAPTOP_NOTCH } from './frame-catalogue.ts';
import { insetRect, linearGradient, num, roundedRectPath } from './svg-shapes.ts';

/**
 * A laptop from the front (MacBook Pro 16, MacBook Air 13, the Windows laptop): an aluminium lid
 * edge around black glass with a thin bezel, a deeper chin, the camera notch cut into the top of
 * the display (or, without a menu bar, the camera in the bezel above a square-cornered panel),
 * the dark hinge, and the base's front lip with its highlight, finger scoop and shaded underside.
 */
export function laptopArt({ spec, layout, finish, hole, holeRadii }: FrameArtInput): FrameArt {
  const notched = spec.systemBar?.kind === 'macos-menu';
  const c = finish.color;
  const lid = layout.body.rect;
  const r = layout.body.radius;
  const s = layout.screen;
  const lidRadii: [number, number, number, number] = [r, r, Math.min(12, r), Math.min(12, r)];
  const glassBottom = Math.min(9, r - rimOf(r));
  const holePath = roundedRectPath(hole, holeRadii);
  const rim = rimOf(r);
  const baseY = lid.y + lid.height + LAPTOP_BASE.hinge;
  const W = layout.width;
  const H = LAPTOP_BASE.height;
  const defs = [
    linearGradient('lid', [
      [0, shade(c, 0.25)],
      [0.5, hex(c)],
      [1, shade(c, -0.15)],
    ]),
    linearGradient('glass', [
      [0, '#141416'],
      [1, '#0A0A0B'],
    ]),
    linearGradient('hinge', [
      [0, '#0C0C0D'],
      [0.6, shade(c, -0.55)],
      [1, shade(c, -0.3)],
    ]),
    linearGradient('base', [
      [0, shade(c, 0.5)],
      [0.12, shade(c, 0.18)],
      [0.45, hex(c)],
      [0.8, shade(c, -0.18)],
      [1, shade(c, -0.5)],
    ]),
    linearGradient(
      'baseEdge',
      [
        [0, '#000', 0.28],
        [0.006, '#000', 0.1],
        [0.03, '#000', 0],
        [0.97, '#000', 0],
        [0.994, '#000', 0.1],
        [1, '#000', 0.28],
      ],
      'horizontal',
    ),
    linearGradient('scoop', [
      [0, shade(c, -0.45)],
      [1, shade(c, -0.05)],
    ]),
  ].join('');
  const notch = { w: LAPTOP_NOTCH.width, h: LAPTOP_NOTCH.height };
  const nx = s.x + (s.width - notch.w) / 2;
  const notchPath = [
    `M${num(nx - 6)},${num(s.y - 1)}`,
    `Q${num(nx)},${num(s.y - 1)} ${num(nx)},${num(s.y + 6)}`,
    `V${num(s.y + notch.h - 9)}`,
    `Q${num(nx)},${num(s.y + notch.h)} ${num(nx + 9)},${num(s.y + notch.h)}`,
    `H${num(nx + notch.w - 9)}`,
    `Q${num(nx + notch.w)},${num(s.y + notch.h)} ${num(nx + notch.w)},${num(s.y + notch.h - 9)}`,
    `V${num(s.y + 6)}`,
    `Q${num(nx + notch.w)},${num(s.y - 1)} ${num(nx + notch.w + 6)},${num(s.y - 1)}Z`,
  ].join('');
  const camX = s.x + s.width / 2;
  const camY = notched ? s.y + 13 : lid.y + spec.bezel.top / 2;
  const basePath = [
    `M${num(4)},${num(baseY)}`,
    `H${num(W - 4)}`,
    `Q${num(W)},${num(baseY)} ${num(W)},${num(baseY + 5)}`,
    `V${num(baseY + H - 12)}`,
    `Q${num(W)},${num(baseY + H)} ${num(W - 22)},${num(baseY + H)}`,
    `H${num(22)}`,
    `Q${num(0)},${num(baseY + H)} ${num(0)},${num(baseY + H - 12)}`,
    `V${num(baseY + 5)}`,
    `Q${num(0)},${num(baseY)} ${num(4)},${num(baseY)}Z`,
  ].join('');
  const scoopW = 250;
  const scoop = `M${num(W / 2 - scoopW / 2)},${num(baseY)}C${num(W / 2 - scoopW / 2 + 24)},${num(baseY + 9)} ${num(W / 2 + scoopW / 2 - 24)},${num(baseY + 9)} ${num(W / 2 + scoopW / 2)},${num(baseY)}Z`;
  const hinge = { x: lid.x + 16, w: lid.width - 32 };
  const body = [
    `<path d="${roundedRectPath(lid, lidRadii)}${holePath}" fill-rule="evenodd" fill="url(#lid)"/>`,
    `<path d="${roundedRectPath(insetRect(lid, rim), [r - rim, r - rim, glassBottom, glassBottom])}${holePath}" fill-rule="evenodd" fill="url(#glass)"/>`,
    `<path d="${roundedRectPath(insetRect(lid, rim + 0.5), [r - rim, r - rim, glassBottom, glassBottom])}" fill="none" stroke="#2A2A2E" stroke-width="1" opacity="0.9"/>`,
    notched ? `<path d="${notchPath}" fill="#0A0A0B"/>` : '',
    `<circle cx="${num(camX)}" cy="${num(camY)}" r="4.6" fill="#15171C"/>`,
    `<circle cx="${num(camX)}" cy="${num(camY)}" r="2.4" fill="#1E2A45"/>`,
    `<circle cx="${num(camX - 0.9)}" cy="${num(camY - 0.9)}" r="0.8" fill="#7E93C4" opacity="0.6"/>`,
    `<rect x="${num(hinge.x)}" y="${num(lid.y + lid.height - 2)}" width="${num(hinge.w)}" height="${LAPTOP_BASE.hinge + 4}" rx="3" fill="url(#hinge)"/>`,
    `<path d="${basePath}" fill="url(#base)"/>`,
    `<path d="${basePath}" fill="url(#baseEdge)"/>`,
    `<path d="${scoop}" fill="url(#scoop)"/>`,
    `<rect x="${num(6)}" y="${num(baseY + 0.4)}" width="${num(W - 12)}" height="0.9" fill="#fff" opacity="0.35"/>`,
  ].join('');
  return { defs, body };
}

/** The metal rim of the lid around the glass: thinner on a squarer lid. */
function rimOf(radius: number): number {
  return radius >= 20 ? 3.2 : 2.4;
}
