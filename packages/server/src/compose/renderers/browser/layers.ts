import type { Rgba } from '../../css/css-color.ts';
import type { Rect, Scene, SceneScreenshot } from '../../scene-types.ts';
import { escapeHtml, gradientToCss, px, rgba, style } from './css.ts';

/**
 * The layers of the browser renderer's document, each an absolutely positioned box in output
 * pixels, in the raster renderer's order: background, shadows, frame (under the screenshot),
 * then rim, scrim and device (over it). Texts come from browser-text.ts.
 */

/** An absolutely positioned box's style at `r`. */
export const box = (r: Rect, extra: Record<string, string | number | null | false> = {}): string =>
  style({ left: r.x, top: r.y, width: r.width, height: r.height, ...extra });

/** An absolutely positioned div. */
export const div = (attr: string, inner = ''): string => `<div class="a" style="${attr}">${inner}</div>`;

const shrink = (r: Rect, d: number): Rect => ({
  x: r.x + d,
  y: r.y + d,
  width: r.width - 2 * d,
  height: r.height - 2 * d,
});

/** The screenshot's corner radii as CSS (`tl tr br bl`, a device screen's own corners). */
export function screenshotRadius(s: SceneScreenshot, inset = 0): string {
  const list = s.corners ?? [s.radius, s.radius, s.radius, s.radius];
  return list.map((r) => px(Math.max(0, r - inset))).join(' ');
}

/** The canvas background; an image is composited under the page by the renderer, transparent stays empty. */
export function backgroundLayer(scene: Scene): string {
  const { width, height } = scene.canvas;
  const bg = scene.background;
  const r = { x: 0, y: 0, width, height };
  if (bg.kind === 'gradient') return div(box(r, { background: gradientToCss(bg.gradient) }));
  if (bg.kind === 'solid') return div(box(r, { background: rgba(bg.color) }));
  return '';
}

/** Far enough off the canvas that a shadow's own box is never seen. */
const AWAY = 100_000;

/**
 * Shadows as `box-shadow`s, topmost listed first. Those cast by the frame go on one transparent
 * box at the frame: CSS never paints a box-shadow under its own box, which is what the raster
 * renderer does with the frame's area. The scene keeps each shadow's rect (spread and offset
 * applied); they are turned back into offsets and spread relative to the frame. A shadow of
 * another shape (a laptop's base) is cast by its own box placed far off the canvas, with the
 * offset bringing the shadow exactly onto its rect.
 */
export function shadowsLayer(scene: Scene): string {
  const f = scene.frame.rect;
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length)
      out.push(div(box(f, { 'border-radius': scene.frame.radius, 'box-shadow': run.reverse().join(',') })));
    run = [];
  };
  // In scene order (first drawn lowest); consecutive frame shadows share one box.
  for (const s of scene.shadows) {
    const spread = (s.rect.width - f.width) / 2;
    const blur = px(2 * s.sigma);
    if (Math.abs(s.rect.height - f.height - 2 * spread) < 0.01) {
      const dx = s.rect.x + spread - f.x;
      const dy = s.rect.y + spread - f.y;
      run.push(`${px(dx)} ${px(dy)} ${blur} ${px(spread)} ${rgba(s.color)}`);
    } else {
      flush();
      const at = { ...s.rect, x: s.rect.x - AWAY };
      out.push(
        div(box(at, { 'border-radius': s.radius, 'box-shadow': `${px(AWAY)} 0 ${blur} 0 ${rgba(s.color)}` })),
      );
    }
  }
  flush();
  return out.join('');
}

/** Border band (solid or frosted glass with its hairlines) and the inset mat, under the screenshot. */
export function frameLayer(scene: Scene, autoMat: Rgba | undefined): string {
  const { rect, radius, border } = scene.frame;
  const band = border && border.kind !== 'rim' ? border.width : 0;
  const inner = { rect: shrink(rect, band), radius: Math.max(0, radius - band) };
  const out: string[] = [];
  if (border?.kind === 'solid' && band > 0)
    out.push(div(box(rect, { 'border-radius': radius, border: `${px(band)} solid ${rgba(border.color)}` })));
  if (border?.kind === 'glass' && band > 0) {
    const hair = Math.max(1, Math.round(scene.canvas.scale));
    const frosted = scene.background.kind !== 'transparent';
    out.push(
      div(
        box(rect, {
          'border-radius': radius,
          background: rgba(border.color),
          'backdrop-filter': frosted ? `blur(${px(band * 0.9)})` : null,
          'box-shadow': `inset 0 0 0 ${px(hair)} rgba(255,255,255,0.55)`,
        }),
      ),
      div(
        box(inner.rect, {
          'border-radius': inner.radius,
          'box-shadow': `inset 0 0 0 ${px(hair)} rgba(255,255,255,0.3)`,
        }),
      ),
    );
  }
  const fill = scene.frame.fill === 'auto' ? autoMat : scene.frame.fill;
  if (fill) out.push(div(box(inner.rect, { 'border-radius': inner.radius, background: rgba(fill) })));
  return out.join('');
}

/** A flat fill in the screenshot's shape (composite mode: where the screenshot will be pasted). */
export function holeLayer(scene: Scene, fill: Rgba): string {
  const s = scene.screenshot;
  return div(box(s.rect, { 'border-radius': screenshotRadius(s), background: rgba(fill) }));
}

/** The capture cropped (frame_ratio) and scaled into its rounded rect, drawn by Chromium. */
export function screenshotLayer(scene: Scene, src: { url: string; width: number; height: number }): string {
  const { rect, crop } = scene.screenshot;
  const sx = rect.width / crop.width;
  const sy = rect.height / crop.height;
  const img = `<img alt="" src="${escapeHtml(src.url)}" style="${style({
    position: 'absolute',
    left: -crop.x * sx,
    top: -crop.y * sy,
    width: src.width * sx,
    height: src.height * sy,
  })}">`;
  return div(box(rect, { 'border-radius': screenshotRadius(scene.screenshot), overflow: 'hidden' }), img);
}

/** Layers over the screenshot and inside its shape: the rim border and the scrim under overlay text. */
export function rimAndScrimLayer(scene: Scene): string {
  const out: string[] = [];
  const border = scene.frame.border;
  const shot = scene.screenshot;
  const { rect } = shot;
  if (border?.kind === 'rim' && border.width > 0)
    out.push(
      div(
        box(rect, {
          'border-radius': screenshotRadius(shot),
          border: `${px(border.width)} solid ${rgba(border.color)}`,
        }),
      ),
    );
  const s = scene.scrim;
  if (s) {
    // The raster scrim's alpha follows smoothstep from its top to its bottom; 17 stops keep a
    // linear interpolation of it within one 8-bit level.
    const stops = Array.from({ length: 17 }, (_, i) => {
      const t = i / 16;
      return `${rgba({ ...s.color, a: s.color.a * t * t * (3 - 2 * t) })} ${Math.round(t * 100000) / 1000}%`;
    });
    const inner = div(
      box(
        { x: s.rect.x - rect.x, y: s.rect.y - rect.y, width: s.rect.width, height: s.rect.height },
        { background: `linear-gradient(180deg,${stops.join(',')})` },
      ),
    );
    out.push(div(box(rect, { 'border-radius': screenshotRadius(shot), overflow: 'hidden' }), inner));
  }
  return out.join('');
}

/**
 * The device frame: its SVG (built by frames/, never from user text; its screen opening is
 * transparent) as a data: image at the device's rect. An `<img>` keeps the SVG inert: no
 * script, no external reference is ever loaded from an image.
 */
export function deviceLayer(scene: Scene): string {
  const d = scene.device;
  if (!d) return '';
  const url = `data:image/svg+xml;base64,${Buffer.from(d.svg).toString('base64')}`;
  const img = `<img alt="" src="${url}" style="${style({ display: 'block', width: d.rect.width, height: d.rect.height })}">`;
  return div(box(d.rect), img);
}

/**
 * A clip that keeps everything but `hole` (even-odd polygon): the layers over the screenshot are
 * drawn around it in the canvas pass and inside it in the overlay pass, never twice.
 */
export function clipOutside(width: number, height: number, hole: Rect): string {
  const { x, y } = hole;
  const x1 = hole.x + hole.width;
  const y1 = hole.y + hole.height;
  const pts = [
    [0, 0],
    [width, 0],
    [width, height],
    [0, height],
    [0, 0],
    [x, y],
    [x1, y],
    [x1, y1],
    [x, y1],
    [x, y],
  ];
  return `polygon(evenodd,${pts.map(([a, b]) => `${px(a as number)} ${px(b as number)}`).join(',')})`;
}
