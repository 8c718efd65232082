import {
  chromePalette,
  closeGlyph,
  displayUrl,
  globeIcon,
  lockIcon,
  navIcon,
  tabTitle,
} from './browser-chrome.ts';
import type { FrameArt, FrameArtInput, FrameLabel } from './frame-art.ts';
import { BROWSER_CHROME } from './frame-catalogue.ts';
import { insetRect, num, roundedRectPath } from './svg-shapes.ts';

/** A browser tab with flared bottom corners, spanning x0..x1 from `top` down to `bottom`. */
export function tabPath(x0: number, x1: number, top: number, bottom: number, r = 8): string {
  return [
    `M${num(x0 - r)},${bottom}`,
    `Q${num(x0)},${bottom} ${num(x0)},${bottom - r}`,
    `V${top + r}`,
    `Q${num(x0)},${top} ${num(x0 + r)},${top}`,
    `H${num(x1 - r)}`,
    `Q${num(x1)},${top} ${num(x1)},${top + r}`,
    `V${bottom - r}`,
    `Q${num(x1)},${bottom} ${num(x1 + r)},${bottom}Z`,
  ].join('');
}

type ChromePalette = ReturnType<typeof chromePalette>;

/** What distinguishes one browser's chrome from another: metrics and window controls. */
export interface BrowserWindowStyle {
  device: keyof typeof BROWSER_CHROME;
  /** Left edge of the active tab and its widest width. */
  tabX: number;
  tabMaxWidth: number;
  /** Gap above the tab inside the tab strip. */
  tabTop: number;
  /** Globe icon and close glyph positions inside the tab, close glyph size. */
  globeDx: number;
  closeDx: number;
  closeSize: number;
  newTabStrokeWidth: number;
  /** x of the back, forward and reload icons. */
  navX: readonly [number, number, number];
  /** Address field: left edge, inset from the toolbar top and bottom, gap to the right edge. */
  fieldX: number;
  fieldInset: number;
  fieldRightGap: number;
  /** Tab title box: left inset and total horizontal room taken by icons. */
  titleDx: number;
  titleRoom: number;
  /** Traffic lights or caption buttons, in the tab strip. */
  windowControls(width: number, tabStrip: number, p: ChromePalette): string;
  /** The "more" dots at the right of the toolbar. */
  menuDots(width: number, cy: number, p: ChromePalette): string;
}

/**
 * A browser window: the active tab in the tab strip, back / forward / reload and the address
 * field with a padlock and the captured URL in the toolbar, a hairline separator above the page
 * and a hairline outline. The tab title and URL are labels, drawn as text by the renderers.
 */
export function browserWindowArt(
  { layout, finish, hole, holeRadii, page }: FrameArtInput,
  style: BrowserWindowStyle,
): FrameArt {
  const p = chromePalette(finish);
  const { rect: w, radius } = layout.body;
  const { tabStrip, toolbar } = BROWSER_CHROME[style.device];
  const W = w.width;
  const holePath = roundedRectPath(hole, holeRadii);
  const x0 = style.tabX;
  const x1 = x0 + Math.max(96, Math.min(style.tabMaxWidth, W * 0.22));
  const ty = tabStrip / 2 + 3;
  const cy = tabStrip + toolbar / 2;
  const field = {
    x: style.fieldX,
    y: tabStrip + style.fieldInset,
    width: Math.max(40, W - style.fieldX - style.fieldRightGap),
    height: toolbar - 2 * style.fieldInset,
  };
  const [backX, forwardX, reloadX] = style.navX;
  const body = [
    `<path d="${roundedRectPath(w, radius)}${holePath}" fill-rule="evenodd" fill="${p.strip}"/>`,
    `<rect x="0" y="${tabStrip}" width="${num(W)}" height="${toolbar}" fill="${p.toolbar}"/>`,
    `<path d="${tabPath(x0, x1, style.tabTop, tabStrip)}" fill="${p.toolbar}"/>`,
    globeIcon(x0 + style.globeDx, ty, p.muted),
    closeGlyph(x1 - style.closeDx, ty, style.closeSize, p.muted),
    `<path d="M${num(x1 + 24)},${ty - 6}V${ty + 6}M${num(x1 + 18)},${ty}H${num(x1 + 30)}" stroke="${p.muted}" stroke-width="${style.newTabStrokeWidth}" stroke-linecap="round"/>`,
    style.windowControls(W, tabStrip, p),
    navIcon('back', backX, cy, p.muted),
    navIcon('forward', forwardX, cy, p.muted),
    navIcon('reload', reloadX, cy, p.muted),
    `<rect x="${field.x}" y="${field.y}" width="${num(field.width)}" height="${field.height}" rx="${field.height / 2}" fill="${p.field}"/>`,
    lockIcon(field.x + 18, cy + 1, p.muted),
    style.menuDots(W, cy, p),
    `<rect x="0" y="${tabStrip + toolbar - 0.5}" width="${num(W)}" height="1" fill="${p.separator}"/>`,
    `<path d="${roundedRectPath(insetRect(w, 0.5), radius - 0.5)}" fill="none" stroke="${p.outline}" stroke-width="1"/>`,
  ].join('');
  const labels: FrameLabel[] = [
    {
      text: tabTitle(page),
      box: { x: x0 + style.titleDx, y: ty - 9, width: x1 - x0 - style.titleRoom, height: 18 },
      size: 12,
      weight: 400,
      color: p.text,
    },
  ];
  const url = displayUrl(page.url);
  if (url) {
    labels.push({
      text: url,
      box: { x: field.x + 32, y: cy - 10, width: field.width - 44, height: 20 },
      size: 13.5,
      weight: 400,
      color: p.text,
    });
  }
  return { defs: '', body, labels };
}
