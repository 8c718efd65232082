import type { Mat3 } from '../../camera/camera-math.ts';
import { layerScene } from '../../camera/scene-layer.ts';
import { type BlurStop, levelStops, type MaskGeometry } from '../../effects/depth-blur-mask.ts';
import type { Rect, Scene, SceneLayer, SceneShadow } from '../../scene-types.ts';
import { gradientToCss, num, px, rgba, style } from './css.ts';
import { buildSceneHtml, type SceneDocument, type SceneHtmlOptions } from './scene-html.ts';

/**
 * The camera and depth blur in the browser renderer's document, from the same Scene values the
 * raster renderer uses: the camera homography as a CSS `matrix3d` (transform-origin 0 0, so it
 * maps page px to page px exactly like the raster warp), each blur level as a copy of the flat
 * frame layer with `filter: blur()` and a `mask-image` gradient built from the same stops.
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

/**
 * A mask gradient for the box `box` with opacity `stops` along `g`: a linear gradient's stop
 * positions are moved from the frame's parameter to the box's gradient line (CSS measures it
 * through the box centre, |w sin a| + |h cos a| long); a radial one is an explicit ellipse.
 */
export function maskGradient(g: MaskGeometry, stops: BlurStop[], box: Rect): string {
  const at = (m: number) => `rgba(0,0,0,${num(m)})`;
  if (g.kind === 'radial') {
    const list = stops.map((s) => `${at(s.m)} ${num(s.t * 100)}%`).join(',');
    return `radial-gradient(ellipse ${px(g.rx)} ${px(g.ry)} at ${px(g.centre.x - box.x)} ${px(g.centre.y - box.y)},${list})`;
  }
  const deg = (Math.atan2(g.dir.x, -g.dir.y) * 180) / Math.PI;
  const len = Math.abs(box.width * g.dir.x) + Math.abs(box.height * g.dir.y);
  const shift =
    (box.x + box.width / 2 - g.origin.x) * g.dir.x + (box.y + box.height / 2 - g.origin.y) * g.dir.y;
  const list = stops.map((s) => `${at(s.m)} ${num(((s.t * g.unit - shift) / len + 0.5) * 100)}%`).join(',');
  return `linear-gradient(${num(deg)}deg,${list})`;
}

/**
 * The frame layer: `inner` is its flat HTML in layer coordinates (origin at `layer.rect`). One
 * sharp copy, then one blurred, masked copy per depth-blur level (stacked source-over, as the
 * raster renderer stacks them), all inside the camera's transform.
 */
export function frameLayerHtml(scene: Scene, layer: SceneLayer, inner: string): string {
  const b = layer.rect;
  const copies = [`<div class="a" style="${abs(b)}">${inner}</div>`];
  const blur = layer.depthBlur;
  if (blur) {
    blur.sigmas.forEach((sigma, i) => {
      const mask = maskGradient(blur.geometry, levelStops(blur.stops, blur.sigmas.length, i + 1), b);
      const extra = { filter: `blur(${px(sigma)})`, 'mask-image': mask };
      copies.push(`<div class="a" style="${abs(b, extra)}">${inner}</div>`);
    });
  }
  return transformed(scene, layer.camera?.matrix ?? null, copies.join(''));
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

/**
 * The document of a scene with a frame layer (camera or depth blur), built from two documents
 * of the scene renderer: the layer drawn flat on its own (inline screenshot), and the canvas
 * with only the background and the texts that stay flat. Projected shadows and the transformed,
 * blurred layer go between them (z-index -1 over the canvas background: under every text).
 * Chromium draws the screenshot: a Node paste could not follow the 3D transform.
 */
export function buildLayeredHtml(scene: Scene, layer: SceneLayer, options: SceneHtmlOptions): SceneDocument {
  const flat = buildSceneHtml(layerScene(scene, layer), options);
  const outer = buildSceneHtml(
    {
      ...scene,
      background: { kind: 'transparent' },
      shadows: [],
      frame: { rect: EMPTY, radius: 0, fill: null, border: null },
      screenshot: { ...scene.screenshot, rect: EMPTY, corners: [0, 0, 0, 0] },
      scrim: null,
      device: null,
      texts: scene.texts.filter((t) => !t.onFrame),
      layer: null,
    },
    { ...options, screenshot: { mode: 'inline', url: 'data:,', width: 1, height: 1 } },
  );
  const body = flat.html.slice(flat.html.indexOf('<body>') + 6, flat.html.lastIndexOf('</body>'));
  const fonts = (flat.html.match(/@font-face\{[^}]*\}/g) ?? []).join('');
  const under =
    backgroundHtml(scene) + projectedShadowsHtml(scene, scene.shadows) + frameLayerHtml(scene, layer, body);
  const { width, height } = scene.canvas;
  const html = outer.html
    .replace('</head>', `<style>${fonts}</style></head>`)
    .replace(
      '</body>',
      `<div class="a" style="${abs({ x: 0, y: 0, width, height }, { 'z-index': -1, overflow: 'hidden' })}">${under}</div></body>`,
    );
  return { html, width: outer.width, height: outer.height, overlay: null };
}

/** The canvas background (an image background is composited under the page by the renderer). */
function backgroundHtml(scene: Scene): string {
  const bg = scene.background;
  const r = { x: 0, y: 0, width: scene.canvas.width, height: scene.canvas.height };
  if (bg.kind === 'gradient')
    return `<div class="a" style="${abs(r, { background: gradientToCss(bg.gradient) })}"></div>`;
  if (bg.kind === 'solid') return `<div class="a" style="${abs(r, { background: rgba(bg.color) })}"></div>`;
  return '';
}
