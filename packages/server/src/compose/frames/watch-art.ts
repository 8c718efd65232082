import { hex, shade } from './device-finish.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { insetRect, linearGradient, num, roundedRectPath } from './svg-shapes.ts';

/**
 * A watch from the front, drawn by us: a band above and below a rounded case in the finish, a
 * black bezel around the rounded screen, and the crown and side button on the right.
 */
export function watchArt({ layout, finish, hole, holeRadii }: FrameArtInput): FrameArt {
  const c = finish.color;
  const { rect: b, radius } = layout.body;
  const holePath = roundedRectPath(hole, holeRadii);
  const [, top, bottom] = layout.silhouette as [unknown, { rect: typeof b }, { rect: typeof b }];
  const band = shade(c, -0.08);
  const defs = [
    linearGradient(
      'case',
      [
        [0, shade(c, -0.3)],
        [0.04, shade(c, 0.3)],
        [0.12, hex(c)],
        [0.88, hex(c)],
        [0.96, shade(c, 0.3)],
        [1, shade(c, -0.3)],
      ],
      'horizontal',
    ),
    linearGradient(
      'band',
      [
        [0, shade(c, -0.22)],
        [0.1, band],
        [0.9, band],
        [1, shade(c, -0.22)],
      ],
      'horizontal',
    ),
    linearGradient('crown', [
      [0, shade(c, 0.25)],
      [1, shade(c, -0.3)],
    ]),
  ].join('');
  const right = b.x + b.width;
  // Ridges across the band, like a woven loop, drawn faintly.
  const ridges: string[] = [];
  for (const part of [top, bottom]) {
    for (let y = part.rect.y + 10; y < part.rect.y + part.rect.height - 6; y += 9) {
      ridges.push(
        `<rect x="${num(part.rect.x + 3)}" y="${num(y)}" width="${num(part.rect.width - 6)}" height="1.2" fill="#000" opacity="0.07"/>`,
      );
    }
  }
  const body = [
    `<path d="${roundedRectPath(top.rect, [14, 14, 0, 0])}" fill="url(#band)"/>`,
    `<path d="${roundedRectPath(bottom.rect, [0, 0, 14, 14])}" fill="url(#band)"/>`,
    ridges.join(''),
    `<rect x="${num(right - 3)}" y="${num(b.y + b.height * 0.24)}" width="12" height="40" rx="4" fill="url(#crown)"/>`,
    `<rect x="${num(right - 2)}" y="${num(b.y + b.height * 0.24 + 6)}" width="11" height="1" fill="#000" opacity="0.2"/>`,
    `<rect x="${num(right - 2)}" y="${num(b.y + b.height * 0.24 + 14)}" width="11" height="1" fill="#000" opacity="0.2"/>`,
    `<rect x="${num(right - 2)}" y="${num(b.y + b.height * 0.24 + 22)}" width="11" height="1" fill="#000" opacity="0.2"/>`,
    `<rect x="${num(right - 2)}" y="${num(b.y + b.height * 0.55)}" width="6" height="44" rx="2.5" fill="${shade(c, -0.12)}"/>`,
    `<path d="${roundedRectPath(b, radius)}${holePath}" fill-rule="evenodd" fill="url(#case)"/>`,
    `<path d="${roundedRectPath(insetRect(b, 5), radius - 5)}${holePath}" fill-rule="evenodd" fill="#0B0B0C"/>`,
    `<path d="${roundedRectPath(insetRect(b, 5.4), radius - 5.4)}" fill="none" stroke="#000" stroke-width="0.8"/>`,
  ].join('');
  return { defs, body };
}
