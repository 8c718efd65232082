import type { Mat3 } from '../../camera/camera-math.ts';
import type { Rect, Scene, SceneShadow } from '../../scene-types.ts';
import { gradientToCss, px, rgba, style } from './css.ts';
import type { BrowserFonts } from './fonts.ts';
import { buildSceneHtml, type SceneDocument } from './scene-html.ts';

/**
 * The planes around a frame layer (camera or depth blur) as documents of their own: the layer
 * itself is drawn flat by the scene renderer and warped in Node (render-in-browser.ts says why).
 */

/** A matrix entry with full precision (perspective terms are around 1e-4), never in exponent form. */
function exact(n: number): string {
  if (!Number.isFinite(n)) return '0';
  const t = n.toFixed(12).replace(/\.?0+$/, '');
  return t === '-0' ? '0' : t;
}

/** A homography as CSS `matrix3d` (column-major; z passes through). */
export function matrix3d(h: Mat3): string {
  const [a, b, c, d, e, f, g, hh, i] = h;
  return `matrix3d(${[a, d, 0, g, b, e, 0, hh, 0, 0, 1, 0, c, f, 0, i].map(exact).join(',')})`;
}

const abs = (r: Rect, extra: Record<string, string | number | null | undefined> = {}) =>
  style({ left: r.x, top: r.y, width: r.width, height: r.height, ...extra });

/** A full-canvas box transformed by `h` (identity: no transform). */
function transformed(scene: Scene, h: Mat3 | null, inner: string): string {
  const { width, height } = scene.canvas;
  const extra = h ? { 'transform-origin': '0 0', transform: matrix3d(h) } : {};
  return `<div class="a" style="${abs({ x: 0, y: 0, width, height }, extra)}">${inner}</div>`;
}

/** Shadows drawn through their camera homography: a blurred rounded rect each, nothing cut out. */
export function projectedShadowsHtml(scene: Scene, shadows: SceneShadow[]): string {
  return shadows
    .map((s) => {
      const box = `<div class="a" style="${abs(s.rect, { 'border-radius': s.radius, background: rgba(s.color), filter: s.sigma > 0 ? `blur(${px(s.sigma)})` : null })}"></div>`;
      return transformed(scene, s.matrix ?? null, box);
    })
    .join('');
}

const EMPTY: Rect = { x: 0, y: 0, width: 0, height: 0 };

/** The canvas background (an image background is composited under the page by the renderer). */
function backgroundHtml(scene: Scene): string {
  const bg = scene.background;
  const r = { x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height };
  if (bg.kind === 'gradient')
    return `<div class="a" style="${abs(r, { background: gradientToCss(bg.gradient) })}"></div>`;
  if (bg.kind === 'solid') return `<div class="a" style="${abs(r, { background: rgba(bg.color) })}"></div>`;
  return '';
}

/**
 * The documents of the planes under and over a scene's frame layer, at the canvas size: the
 * backdrop (background and projected shadows) and the texts that stay flat (null when there are
 * none), on a transparent page. Neither holds the screenshot, so both are the same for every
 * capture in the same look and size.
 */
export function buildLayerPlaneHtml(
  scene: Scene,
  options: { fonts: BrowserFonts },
): { backdrop: SceneDocument; texts: SceneDocument | null } {
  // The scene renderer's document of a scene with nothing but the flat texts: its page set-up,
  // CSP and fonts, and the texts drawn where the raster renderer draws them.
  const textsOnly = (texts: Scene['texts']) =>
    buildSceneHtml(
      {
        ...scene,
        background: { kind: 'transparent' },
        shadows: [],
        frame: { rect: EMPTY, radius: 0, fill: null, border: null },
        screenshot: { ...scene.screenshot, rect: EMPTY, corners: [0, 0, 0, 0] },
        scrim: null,
        device: null,
        texts,
        layer: null,
      },
      { fonts: options.fonts, screenshot: { mode: 'inline', url: 'data:,', width: 1, height: 1 } },
    );
  const flatTexts = scene.texts.filter((t) => !t.onFrame);
  const empty = textsOnly([]);
  const { width, height } = scene.canvas;
  const under = backgroundHtml(scene) + projectedShadowsHtml(scene, scene.shadows);
  const backdrop = empty.html.replace(
    '</body>',
    `<div class="a" style="${abs({ x: 0, y: 0, width, height }, { overflow: 'hidden' })}">${under}</div></body>`,
  );
  return {
    backdrop: { ...empty, html: backdrop },
    texts: flatTexts.length > 0 ? textsOnly(flatTexts) : null,
  };
}
