import type { TextAlign } from '@vitrine/contract';
import { parseCssColor, type Rgba } from './css/css-color.ts';
import type { FontRef, SceneText } from './scene-types.ts';
import type { ResolvedStyle } from './style-types.ts';
import { drawableFamily, nearestWeight } from './text/font-families.ts';
import { fitText, layoutText, type TextMeasurer } from './text/text-layout.ts';

const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };
const color = (css: string): Rgba => parseCssColor(css) ?? BLACK;

function fontRef(name: string, weight: number): FontRef {
  const spec = drawableFamily(name);
  return { family: spec?.family ?? 'Inter', weight: spec ? nearestWeight(spec, weight) : weight };
}

/** Tight tracking for large sans/serif headings reads as designed; mono stays as drawn. */
function headingTracking(font: FontRef): number {
  if (font.family === 'JetBrains Mono') return 0;
  return font.family === 'Inter' ? -0.025 : -0.01;
}

/** A text item placed relative to its block's top-left corner (CSS px). */
export type BlockItem = Omit<SceneText, 'box'> & { x: number; y: number; width: number; height: number };

/** Title, subtitle and badge stacked as one block (badge as an eyebrow pill above the title). */
export interface TitleBlock {
  items: BlockItem[];
  width: number;
  height: number;
}

/**
 * Lays out badge + title + subtitle within `wrapWidth` CSS px, aligned `align`. Returns null
 * when there is nothing to show.
 */
export function buildTitleBlock(
  s: ResolvedStyle,
  wrapWidth: number,
  align: TextAlign,
  onScrim: boolean,
  measure: TextMeasurer,
): TitleBlock | null {
  if (!s.title && !s.subtitle && !s.badge) return null;
  const items: BlockItem[] = [];
  let y = 0;
  const dark = s.background_theme === 'dark' || onScrim;
  const base = { gradientCss: null, shadowCss: null, align, verticalAlign: 'top' as const, pill: null };
  if (s.badge) {
    const size = Math.max(12, Math.round(s.title_size * 0.27));
    const font = fontRef('Inter', 600);
    const padX = Math.round(size * 0.85);
    const padY = Math.round(size * 0.45);
    const text = layoutText(
      s.badge,
      { font, size, lineHeight: size * 1.25, letterSpacing: size * 0.01, maxWidth: wrapWidth - 2 * padX },
      measure,
    );
    const width = Math.ceil(text.width) + 2 * padX;
    const height = Math.round(text.height) + 2 * padY;
    items.push({
      ...base,
      role: 'badge',
      lines: text.lines,
      font,
      size,
      lineHeight: size * 1.25,
      letterSpacing: size * 0.01,
      color: color(s.title_color),
      align: 'center',
      verticalAlign: 'middle',
      pill: {
        fill: dark ? { r: 255, g: 255, b: 255, a: 0.16 } : { r: 15, g: 23, b: 42, a: 0.06 },
        stroke: dark ? { r: 255, g: 255, b: 255, a: 0.3 } : { r: 15, g: 23, b: 42, a: 0.12 },
        radius: height / 2,
      },
      x: align === 'left' ? 0 : align === 'right' ? wrapWidth - width : (wrapWidth - width) / 2,
      y,
      width,
      height,
    });
    y += height + Math.round(size * 1.1);
  }
  if (s.title) {
    const font = fontRef(s.title_font, 700);
    const size = s.title_size;
    const lineHeight = size * 1.12;
    const letterSpacing = size * headingTracking(font);
    const text = layoutText(s.title, { font, size, lineHeight, letterSpacing, maxWidth: wrapWidth }, measure);
    items.push({
      ...base,
      role: 'title',
      lines: text.lines,
      font,
      size,
      lineHeight,
      letterSpacing,
      color: color(s.title_color),
      x: 0,
      y,
      width: wrapWidth,
      height: text.height,
    });
    y += text.height + (s.subtitle ? Math.round(size * 0.3) : 0);
  }
  if (s.subtitle) {
    const font = fontRef(s.subtitle_font, 400);
    const size = s.subtitle_size;
    const lineHeight = size * 1.45;
    const text = layoutText(
      s.subtitle,
      { font, size, lineHeight, letterSpacing: 0, maxWidth: wrapWidth },
      measure,
    );
    items.push({
      ...base,
      role: 'subtitle',
      lines: text.lines,
      font,
      size,
      lineHeight,
      letterSpacing: 0,
      color: color(s.subtitle_color),
      x: 0,
      y,
      width: wrapWidth,
      height: text.height,
    });
    y += text.height;
  }
  const last = items[items.length - 1];
  const height = last ? last.y + last.height : 0;
  return { items, width: wrapWidth, height };
}

/** The watermark's text item (CSS px), positioned later by the scene. */
export function buildWatermark(s: ResolvedStyle, measure: TextMeasurer): BlockItem | null {
  if (!s.watermark) return null;
  const size = 14;
  const font = fontRef('Inter', 600);
  const text = layoutText(
    s.watermark,
    { font, size, lineHeight: size * 1.3, letterSpacing: 0.14, maxWidth: 10_000 },
    measure,
  );
  const dark = s.background_theme === 'dark';
  return {
    role: 'watermark',
    lines: text.lines,
    font,
    size,
    lineHeight: size * 1.3,
    letterSpacing: 0.14,
    color: dark ? { r: 255, g: 255, b: 255, a: 0.75 } : { r: 15, g: 23, b: 42, a: 0.55 },
    gradientCss: null,
    shadowCss: null,
    align: 'right',
    verticalAlign: 'middle',
    pill: null,
    x: 0,
    y: 0,
    width: Math.ceil(text.width),
    height: text.height,
  };
}

/** Scales the lengths of a CSS text-shadow `x y [blur] color` by `k`. */
export function scaleTextShadow(css: string, k: number): string {
  let count = 0;
  return css.replace(/(^|\s)(-?[\d.]+)(px)?(?=\s)/g, (m, pre: string, n: string) =>
    count++ < 3 ? `${pre}${Number(n) * k}px` : m,
  );
}

/**
 * The free text overlay (`text_*`) in CSS px of a canvas `canvasWidth` x `canvasHeight`:
 * anchored at text_x/text_y by its alignment, wrapped at text_max_width, shrunk by autofit.
 */
export function buildFreeText(
  s: ResolvedStyle,
  canvasWidth: number,
  canvasHeight: number,
  measure: TextMeasurer,
): BlockItem | null {
  if (!s.text_enabled || !s.text_content) return null;
  const font = fontRef(s.text_font, s.text_weight);
  const maxWidth = s.text_max_width ?? Math.round(canvasWidth * 0.8);
  const tracking = headingTracking(font) * (s.text_size >= 32 ? 1 : 0);
  let size = s.text_size;
  let block = layoutText(
    s.text_content,
    { font, size, lineHeight: size * s.text_line_height, letterSpacing: size * tracking, maxWidth },
    measure,
  );
  if (s.text_autofit) {
    const maxHeight = s.text_box_h ?? Number.POSITIVE_INFINITY;
    const fit = fitText(
      s.text_content,
      { font, maxWidth, letterSpacing: 0, lineHeightFactor: s.text_line_height, letterSpacingEm: tracking },
      { minSize: s.text_fit_min, maxSize: s.text_size, maxHeight },
      measure,
    );
    size = fit.size;
    block = fit.block;
  }
  const width = maxWidth;
  const height = s.text_box_h ?? block.height;
  const ax = s.text_x * canvasWidth;
  const ay = s.text_y * canvasHeight;
  const x = s.text_align === 'left' ? ax : s.text_align === 'right' ? ax - width : ax - width / 2;
  const y =
    s.text_vertical_align === 'top' ? ay : s.text_vertical_align === 'bottom' ? ay - height : ay - height / 2;
  return {
    role: 'text',
    lines: block.lines,
    font,
    size,
    lineHeight: size * s.text_line_height,
    letterSpacing: size * tracking,
    color: color(s.text_color),
    gradientCss: s.text_gradient,
    shadowCss: s.text_shadow,
    align: s.text_align,
    verticalAlign: s.text_vertical_align,
    pill: null,
    x,
    y,
    width,
    height,
  };
}
