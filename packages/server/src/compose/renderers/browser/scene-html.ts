import type { Rgba } from '../../css/css-color.ts';
import type { Rect, Scene } from '../../scene-types.ts';
import { escapeHtml } from './css.ts';
import type { BrowserFonts } from './fonts.ts';
import {
  backgroundLayer,
  box,
  clipOutside,
  deviceLayer,
  div,
  frameLayer,
  holeLayer,
  rimAndScrimLayer,
  screenshotLayer,
  shadowsLayer,
} from './layers.ts';
import { textLayer } from './text.ts';

/** The policy of the compose page (security.md 1.6), also sent as a meta tag in every document. */
export const COMPOSE_CSP =
  "default-src 'none'; img-src data: blob:; style-src 'unsafe-inline'; font-src data:";

/**
 * How the screenshot gets into the picture. `composite`: it is left out of the document (the
 * renderer pastes it between the layers under and over it, so its pixels never cross the
 * DevTools pipe); `inline`: drawn by Chromium from a data: URL of the whole capture.
 */
export type ScreenshotSource =
  | { mode: 'composite' }
  | { mode: 'inline'; url: string; width: number; height: number };

export interface SceneHtmlOptions {
  fonts: BrowserFonts;
  screenshot: ScreenshotSource;
  /** The inset mat colour when the scene says `auto` (picked from the screenshot's edge pixels). */
  autoMat?: Rgba;
  /**
   * Composite mode: a flat fill where the screenshot will be pasted (its edge colour), so the
   * page's PNG compresses well there instead of carrying a dithered gradient nobody sees.
   */
  holeFill?: Rgba;
}

/** A document to render at `width` x `height` CSS px, with device scale factor 1. */
export interface SceneDocument {
  html: string;
  width: number;
  height: number;
  /**
   * Composite mode only: where the page shows the layers over the screenshot (rim, scrim,
   * device, texts) inside the screenshot's rect, on a transparent background: the renderer
   * composites this region over the pasted screenshot, at the screenshot's rect. Null when
   * nothing is drawn over the screenshot.
   */
  overlay: Rect | null;
}

const intersects = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Builds the HTML document of a Scene: positioned boxes in output pixels (the page is rendered
 * at device scale factor 1, so one CSS px is one output pixel and the rects of the scene map
 * exactly). Self-contained: fonts and images are data: URLs, no script, no external URL, the
 * compose CSP in a meta tag; every user string is escaped and every CSS value rebuilt from
 * parsed numbers and colours.
 */
export function buildSceneHtml(scene: Scene, options: SceneHtmlOptions): SceneDocument {
  const { width, height } = scene.canvas;
  const fontRules = new Set<string>();
  const texts = scene.texts.map((t) => {
    const text = t.lines.join('');
    for (const rule of options.fonts.faceCss(t.font, text)) fontRules.add(rule);
    const scripts = options.fonts.scriptFamilies(t.font, text);
    const shifts = options.fonts.satoriBaselineShifts(t);
    return { rect: t.box, html: textLayer(t, options.fonts.metrics(t.font), scripts, shifts) };
  });
  const under = [backgroundLayer(scene), shadowsLayer(scene), frameLayer(scene, options.autoMat)];
  const shot = scene.screenshot.rect;
  // Over the screenshot, in the raster renderer's order: rim, scrim, device, texts.
  const above = [
    { rect: shot, html: rimAndScrimLayer(scene) },
    ...(scene.device ? [{ rect: scene.device.rect, html: deviceLayer(scene) }] : []),
    ...texts,
  ].filter((l) => l.html !== '');
  let overlay: Rect | null = null;
  let overlayHtml = '';
  if (options.screenshot.mode === 'inline') {
    under.push(screenshotLayer(scene, options.screenshot), ...above.map((l) => l.html));
  } else {
    if (options.holeFill) under.push(holeLayer(scene, options.holeFill));
    const over = above.filter((l) => intersects(l.rect, shot));
    if (over.length === 0) under.push(...above.map((l) => l.html));
    else {
      // The canvas pass draws these layers around the screenshot's rect; the overlay pass draws
      // them inside it, on a transparent background, below the canvas: the renderer composites
      // that region over the pasted screenshot.
      under.push(
        div(
          box({ x: 0, y: 0, width, height }, { 'clip-path': clipOutside(width, height, shot) }),
          above.map((l) => l.html).join(''),
        ),
      );
      overlay = { x: 0, y: height, width: shot.width, height: shot.height };
      const moved = div(box({ x: -shot.x, y: -shot.y, width, height }), over.map((l) => l.html).join(''));
      overlayHtml = div(box(overlay, { overflow: 'hidden' }), moved);
    }
  }
  const pageW = Math.max(width, overlay?.width ?? 0);
  const pageH = height + (overlay?.height ?? 0);
  const html =
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(COMPOSE_CSP)}">` +
    `<style>${[...fontRules].join('')}` +
    `html,body{margin:0;padding:0;background:transparent;overflow:hidden;width:${pageW}px;height:${pageH}px}` +
    'body{position:relative}.a{position:absolute;box-sizing:border-box}' +
    '.t{display:flex;flex-direction:column;text-rendering:geometricPrecision}.l{white-space:pre;flex:none;unicode-bidi:plaintext}' +
    // The canvas clips its layers: a shadow's blur must not spill into the overlay region below it.
    `</style></head><body>${div(box({ x: 0, y: 0, width, height }, { overflow: 'hidden' }), under.join(''))}${overlayHtml}</body></html>`;
  return { html, width: pageW, height: pageH, overlay };
}
