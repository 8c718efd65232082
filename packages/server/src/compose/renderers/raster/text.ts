import { Resvg } from '@resvg/resvg-js';
import { loadOnce } from '../../../load-once.ts';
import { cssRgba } from '../../css/css-color.ts';
import type { SceneText } from '../../scene-types.ts';
import type { FontCatalogue, TextFaces } from '../../text/font-catalogue.ts';
import type { BrowserTextDrawer } from '../browser/text-in-browser.ts';
import { blendPixel, type RawImage } from './pixels.ts';

type Node = { type: string; props: Record<string, unknown> };
const el = (type: string, style: Record<string, unknown>, children: unknown): Node => ({
  type,
  props: { style, children },
});

/** Room around the box for descenders, text shadows and kerning differences, in px. */
export function marginFor(t: SceneText): number {
  const shadow = t.shadowCss
    ? Math.max(0, ...(t.shadowCss.match(/-?[\d.]+px/g) ?? []).map((v) => Math.abs(Number.parseFloat(v)))) * 2
    : 0;
  return Math.ceil(t.size * 0.35 + shadow + 2);
}

/** The satori element tree of one text layer: one non-wrapping div per pre-wrapped line. */
function textElement(t: SceneText, fontFamily: string, margin: number): Node {
  const justify = { top: 'flex-start', middle: 'center', bottom: 'flex-end' }[t.verticalAlign];
  const alignItems = { left: 'flex-start', center: 'center', right: 'flex-end' }[t.align];
  const fill: Record<string, unknown> = t.gradientCss
    ? { backgroundImage: t.gradientCss, backgroundClip: 'text', color: 'transparent' }
    : { color: cssRgba(t.color) };
  const lines = t.lines.map((line) =>
    el(
      'div',
      {
        display: 'flex',
        whiteSpace: 'pre',
        fontFamily,
        fontWeight: t.font.weight,
        fontSize: t.size,
        lineHeight: `${t.lineHeight}px`,
        letterSpacing: t.letterSpacing,
        ...fill,
        ...(t.shadowCss ? { textShadow: t.shadowCss } : {}),
      },
      line,
    ),
  );
  const pill = t.pill
    ? {
        backgroundColor: cssRgba(t.pill.fill),
        borderRadius: t.pill.radius,
        ...(t.pill.stroke ? { border: `${Math.max(1, t.size / 14)}px solid ${cssRgba(t.pill.stroke)}` } : {}),
      }
    : {};
  const box = el(
    'div',
    {
      display: 'flex',
      flexDirection: 'column',
      justifyContent: justify,
      alignItems,
      width: t.box.width,
      height: t.box.height,
      ...pill,
    },
    lines,
  );
  return el(
    'div',
    { display: 'flex', padding: margin, width: t.box.width + 2 * margin, height: t.box.height + 2 * margin },
    box,
  );
}

/**
 * satori (with its layout engine in WebAssembly, about 6 MB of the heap) is imported by the first
 * text drawn: most looks have none.
 */
const loadSatori = loadOnce(async () => (await import('satori')).default);

/**
 * Draws the text layers in order. satori (0.63) shapes with HarfBuzz but lays a right-to-left
 * run out in logical order, word by word (docs/decisions.md, issue 34), and draws only the faces
 * it is given: the layers that need a script face go to `browserText`, Chromium's drawing of the
 * same layers, all in one page, started before satori draws the others. Without `browserText`
 * satori draws them all (script characters as boxes).
 */
export async function drawTexts(
  canvas: RawImage,
  texts: readonly SceneText[],
  fonts: FontCatalogue,
  browserText?: BrowserTextDrawer,
): Promise<void> {
  if (texts.length === 0) return;
  const faces = await Promise.all(texts.map((t) => fonts.facesFor(t.lines.join(''), t.font)));
  const routed = browserText ? texts.filter((_, i) => (faces[i] as TextFaces).scriptFaces.length > 0) : [];
  const batch =
    browserText && routed.length > 0
      ? browserText(routed.map((text) => ({ text, margin: marginFor(text) })))
      : null;
  // Settled here, awaited where it is drawn: a failure is thrown there, never left unhandled.
  batch?.catch(() => {});
  for (const [i, t] of texts.entries()) {
    if (!routed.includes(t)) await drawWithSatori(canvas, t, faces[i] as TextFaces, fonts);
    else if (t === routed[0] && batch) {
      const layer = await batch;
      blendStraight(canvas, layer.image, layer.x, layer.y);
    }
  }
}

/**
 * Draws a text layer with satori: it lays the glyphs out as SVG paths, resvg rasterises only the
 * layer's box (never the whole canvas), and the result is blended onto the canvas.
 */
async function drawWithSatori(
  canvas: RawImage,
  t: SceneText,
  faces: TextFaces,
  fonts: FontCatalogue,
): Promise<void> {
  const margin = marginFor(t);
  const width = Math.ceil(t.box.width + 2 * margin);
  const height = Math.ceil(t.box.height + 2 * margin);
  const satori = await loadSatori();
  const ox = Math.round(t.box.x) - margin;
  const oy = Math.round(t.box.y) - margin;
  const svg = await satori(textElement(t, faces.fontFamily, margin) as never, {
    width,
    height,
    fonts: faces.fonts,
    loadAdditionalAsset: (code, segment) => fonts.loadAdditionalAsset(code, segment) as never,
  });
  const rendered = new Resvg(svg, { fitTo: { mode: 'original' }, font: { loadSystemFonts: false } }).render();
  // Read the native getters once: each access crosses into resvg.
  const px = rendered.pixels;
  const rw = rendered.width;
  const rh = rendered.height;
  for (let y = 0; y < rh; y++) {
    const cy = oy + y;
    if (cy < 0 || cy >= canvas.height) continue;
    for (let x = 0; x < rw; x++) {
      const cx = ox + x;
      if (cx < 0 || cx >= canvas.width) continue;
      const i = (y * rw + x) * 4;
      const a = px[i + 3] as number;
      if (a === 0) continue;
      // resvg gives premultiplied pixels.
      const k = 255 / a;
      blendPixel(
        canvas.data,
        (cy * canvas.width + cx) * 4,
        (px[i] as number) * k,
        (px[i + 1] as number) * k,
        (px[i + 2] as number) * k,
        a / 255,
      );
    }
  }
}

/** Blends straight RGBA `layer` onto the canvas with its top-left corner at (ox, oy). */
function blendStraight(canvas: RawImage, layer: RawImage, ox: number, oy: number): void {
  const px = layer.data;
  for (let y = 0; y < layer.height; y++) {
    const cy = oy + y;
    if (cy < 0 || cy >= canvas.height) continue;
    for (let x = 0; x < layer.width; x++) {
      const cx = ox + x;
      if (cx < 0 || cx >= canvas.width) continue;
      const i = (y * layer.width + x) * 4;
      const a = px[i + 3] as number;
      if (a === 0) continue;
      blendPixel(
        canvas.data,
        (cy * canvas.width + cx) * 4,
        px[i] as number,
        px[i + 1] as number,
        px[i + 2] as number,
        a / 255,
      );
    }
  }
}
