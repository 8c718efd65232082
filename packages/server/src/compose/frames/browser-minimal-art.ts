import { chromePalette, displayUrl, lockIcon, tabTitle } from './browser-chrome.ts';
import type { FrameArt, FrameArtInput, FrameLabel } from './frame-art.ts';
import { MINIMAL_CHROME } from './frame-catalogue.ts';
import { insetRect, num, roundedRectPath } from './svg-shapes.ts';
import { labelWidth } from './system-bar.ts';

/**
 * A minimal browser window: one bar with three neutral window dots and the page's title at the
 * left, and the address (padlock and URL) in a centred field; a hairline above the page.
 */
export function browserMinimalArt({
  layout,
  finish,
  hole,
  holeRadii,
  page,
  measure,
}: FrameArtInput): FrameArt {
  const p = chromePalette(finish);
  const { rect: w, radius } = layout.body;
  const { bar } = MINIMAL_CHROME;
  const W = w.width;
  const cy = bar / 2;
  const holePath = roundedRectPath(hole, holeRadii);
  const url = displayUrl(page.url);
  const fieldW = Math.max(120, Math.min(520, W * 0.4));
  const field = { x: (W - fieldW) / 2, y: 8, width: fieldW, height: bar - 16 };
  const body = [
    `<path d="${roundedRectPath(w, radius)}${holePath}" fill-rule="evenodd" fill="${p.toolbar}"/>`,
    ...[0, 1, 2].map((i) => `<circle cx="${20 + i * 18}" cy="${cy}" r="5.5" fill="${p.separator}"/>`),
    `<rect x="${num(field.x)}" y="${field.y}" width="${num(field.width)}" height="${field.height}" rx="${field.height / 2}" fill="${p.field}"/>`,
    `<rect x="0" y="${bar - 0.5}" width="${num(W)}" height="1" fill="${p.separator}"/>`,
    `<path d="${roundedRectPath(insetRect(w, 0.5), radius - 0.5)}" fill="none" stroke="${p.outline}" stroke-width="1"/>`,
  ];
  const labels: FrameLabel[] = [];
  const titleX = 82;
  const titleRoom = field.x - 16 - titleX;
  if (titleRoom > 24) {
    labels.push({
      text: tabTitle(page),
      box: { x: titleX, y: cy - 9, width: titleRoom, height: 18 },
      size: 12.5,
      weight: 500,
      color: p.text,
    });
  }
  if (url) {
    // The padlock and URL centred in the field, or from its left when the URL is too long.
    const room = field.width - 44;
    const textW = Math.min(room, labelWidth(measure, url, 400, 13) + 13 * 0.5);
    const left = field.x + Math.max(30, (field.width - textW - 18) / 2 + 18);
    body.push(lockIcon(left - 16, cy + 1, p.muted));
    labels.push({
      text: url,
      box: { x: left, y: cy - 10, width: textW, height: 20 },
      size: 13,
      weight: 400,
      color: p.text,
    });
  }
  return { defs: '', body: body.join(''), labels };
}
