import type { SceneText } from '../../scene-types.ts';
import { escapeHtml, px, rgba, safeGradientCss, safeTextShadow, style } from './css.ts';
import type { FontMetrics } from './fonts.ts';

/** Emoji clusters (with variation selectors, skin tones and ZWJ sequences), captured for split(). */
const EMOJI =
  /(\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})?)*)/u;

/** Noto Color Emoji as pango draws it for satori: 60 x 57 px at its default 48 px (dpi 288). */
const PANGO_EMOJI = { size: 48, width: 60, height: 57 } as const;

/**
 * An emoji laid out as the raster renderer's satori lays it out: satori gives each emoji one
 * em of advance and fits the pango image (the glyph's advance by its line height) into an
 * em-wide, line-high box, centred (SVG's default `xMidYMid meet`). Here the same box is an
 * inline flex box holding the glyph at the font size that makes Chromium's glyph the size of
 * the scaled image. Colour emoji are drawn as they are, never tinted by a gradient fill (an
 * opaque colour on their run lets Chromium paint the bitmaps).
 */
function emojiStyle(t: SceneText): string {
  const k = Math.min(t.size / PANGO_EMOJI.width, t.lineHeight / PANGO_EMOJI.height);
  return style({
    display: 'inline-flex',
    'align-items': 'center',
    'justify-content': 'center',
    'vertical-align': 'top',
    width: t.size,
    height: t.lineHeight,
    'font-family': '"Noto Color Emoji"',
    'font-size': PANGO_EMOJI.size * k,
    'line-height': 'normal',
    'letter-spacing': 0,
    color: rgba({ ...t.color, a: 1 }),
  });
}

const JUSTIFY = { top: 0, middle: 0.5, bottom: 1 } as const;

/**
 * Where the first line starts inside the box's content area. satori (yoga) stacks lines of
 * `round(lineHeight)` px and rounds each line's top to a whole pixel; Chromium would place a
 * centred line at a fractional top and paint its glyphs a pixel off. So the lines start at
 * yoga's rounded position and keep the CSS line height only for the baseline inside the line
 * (both engines put it at ascent + floor(half-leading)).
 */
function firstLineOffset(t: SceneText, border: number, metrics: FontMetrics): number {
  const top = Math.round(t.box.y) + border;
  const free = t.box.height - 2 * border - t.lines.length * Math.round(t.lineHeight);
  // Chromium on Linux rounds the descent up when rounding would cut it, borrowing the pixel from
  // the ascent (SimpleFontData): its baseline is then one pixel higher than satori's.
  const descent = metrics.descent * t.size;
  const borrowed = Math.round(descent) < descent ? 1 : 0;
  return Math.round(top + free * JUSTIFY[t.verticalAlign]) - top + borrowed;
}
const ALIGN = { left: 'flex-start', center: 'center', right: 'flex-end' } as const;

/**
 * One text layer as HTML, laid out like the raster renderer's satori tree: a flex column box at
 * the scene's (rounded) position holding one non-wrapping block per pre-wrapped line, so the
 * lines break exactly where the scene broke them. The pill, when there is one, is the box's
 * background and border. Gradient fill via `background-clip: text` on each line. Characters the
 * family lacks are drawn in `scriptFamilies` (fonts.ts); each line takes its direction from its
 * first strong character (`unicode-bidi: plaintext` in the document's style), as a paragraph
 * of its own would.
 */
export function textLayer(
  t: SceneText,
  metrics: FontMetrics,
  scriptFamilies: readonly string[] = [],
  baselineShifts: readonly number[] = [],
): string {
  const gradient = t.gradientCss ? safeGradientCss(t.gradientCss) : null;
  const shadow = t.shadowCss ? safeTextShadow(t.shadowCss) : null;
  const fill = gradient
    ? {
        'background-image': gradient,
        '-webkit-background-clip': 'text',
        'background-clip': 'text',
        color: 'transparent',
      }
    : { color: rgba(t.color) };
  const lineStyle = style({ ...fill, 'text-shadow': shadow });
  const content = (line: string) =>
    line
      .split(EMOJI)
      .map((part, i) =>
        i % 2 ? `<span style="${emojiStyle(t)}">${escapeHtml(part)}</span>` : escapeHtml(part),
      )
      .join('');
  const border = t.pill?.stroke ? Math.max(1, t.size / 14) : 0;
  const first = firstLineOffset(t, border, metrics);
  const lines = t.lines.map(
    (line, i) =>
      `<div class="l" style="${lineStyle};${style({
        height: Math.round(t.lineHeight),
        'margin-top': i ? null : first,
        ...(baselineShifts[i] ? { position: 'relative', top: baselineShifts[i] } : {}),
      })}">${content(line)}</div>`,
  );
  const pill = t.pill
    ? {
        background: rgba(t.pill.fill),
        'border-radius': t.pill.radius,
        border: t.pill.stroke ? `${px(border)} solid ${rgba(t.pill.stroke)}` : null,
      }
    : {};
  const boxStyle = style({
    left: Math.round(t.box.x),
    top: Math.round(t.box.y),
    width: t.box.width,
    height: t.box.height,
    'align-items': ALIGN[t.align],
    'font-family': [t.font.family, ...scriptFamilies, 'Noto Color Emoji']
      .map((f) => `"${f.replace(/["\\]/g, '')}"`)
      .join(','),
    'font-weight': String(t.font.weight),
    'font-size': t.size,
    'line-height': t.lineHeight,
    'letter-spacing': t.letterSpacing,
    ...pill,
  });
  return `<div class="a t" style="${boxStyle}">${lines.join('')}</div>`;
}
