import { hex, shade } from './device-finish.ts';
import type { FrameArt, FrameArtInput } from './frame-art.ts';
import { insetRect, linearGradient, num, roundedRectPath } from './svg-shapes.ts';

/**
 * A desktop all-in-one display from the front, drawn by us (no logo): a light glass border
 * around the screen, a coloured chin below it, and a stand (neck and foot) in the finish.
 */
export function displayArt({ spec, layout, finish, hole, holeRadii }: FrameArtInput): FrameArt {
  const c = finish.color;
  const { rect: b, radius } = layout.body;
  const holePath = roundedRectPath(hole, holeRadii);
  const [, neck, foot] = layout.silhouette as [unknown, { rect: typeof b }, { rect: typeof b }];
  const chinTop = b.y + b.height - spec.bezel.bottom + 28;
  const borderBottom = chinTop;
  const defs = [
    linearGradient('chin', [
      [0, shade(c, 0.12)],
      [1, shade(c, -0.12)],
    ]),
    linearGradient(
      'neck',
      [
        [0, shade(c, -0.3)],
        [0.2, shade(c, 0.05)],
        [0.8, shade(c, -0.05)],
        [1, shade(c, -0.35)],
      ],
      'horizontal',
    ),
    linearGradient('foot', [
      [0, shade(c, 0.3)],
      [1, shade(c, -0.25)],
    ]),
  ].join('');
  const glass = { x: b.x, y: b.y, width: b.width, height: borderBottom - b.y };
  const body = [
    // The stand behind the body: the neck leans back, so its top is darker.
    `<rect x="${num(neck.rect.x)}" y="${num(neck.rect.y - 2)}" width="${num(neck.rect.width)}" height="${num(neck.rect.height + 4)}" fill="url(#neck)"/>`,
    `<rect x="${num(neck.rect.x)}" y="${num(neck.rect.y - 2)}" width="${num(neck.rect.width)}" height="40" fill="#000" opacity="0.22"/>`,
    `<path d="${roundedRectPath(foot.rect, [4, 4, foot.rect.height / 2, foot.rect.height / 2])}" fill="url(#foot)"/>`,
    `<path d="${roundedRectPath(b, radius)}${holePath}" fill-rule="evenodd" fill="url(#chin)"/>`,
    `<path d="${roundedRectPath(glass, [radius, radius, 0, 0])}${holePath}" fill-rule="evenodd" fill="#F4F4F2"/>`,
    `<rect x="${num(b.x)}" y="${num(borderBottom - 1)}" width="${num(b.width)}" height="2" fill="#000" opacity="0.08"/>`,
    `<path d="${roundedRectPath(insetRect(b, 0.75), radius - 0.75)}" fill="none" stroke="${hex(c)}" stroke-width="1.5" opacity="0.9"/>`,
    `<path d="${roundedRectPath(insetRect(b, 0.75), radius - 0.75)}" fill="none" stroke="#000" stroke-width="1.5" opacity="0.12"/>`,
    `<path d="${roundedRectPath(insetRect(hole, -0.75), holeRadii)}" fill="none" stroke="#000" stroke-width="1.5" opacity="0.12"/>`,
  ].join('');
  return { defs, body };
}
