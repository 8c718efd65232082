import type { FontRef } from '../scene-types.ts';
import { drawableFamily } from './font-families.ts';

/**
 * Measures text on one line. The scene builder wraps text itself through this interface, so the
 * wrap is decided once and every renderer draws the same lines.
 */
export interface TextMeasurer {
  /** Advance width in px of `text` at `size` px, without letter spacing. */
  lineWidth(text: string, font: FontRef, size: number): number;
}

/**
 * A measurer from average glyph widths: pure and font-file free, for tests and for callers that
 * only need approximate geometry. The real one comes from the font catalogue.
 */
export function createEstimatingMeasurer(): TextMeasurer {
  return {
    lineWidth(text, font, size) {
      const spec = drawableFamily(font.family);
      const weightFactor = 1 + (font.weight - 400) / 4000;
      return [...text].length * size * (spec?.averageAdvance ?? 0.56) * weightFactor;
    },
  };
}

export interface TextBlockSpec {
  font: FontRef;
  size: number;
  /** Line height in px. */
  lineHeight: number;
  letterSpacing: number;
  maxWidth: number;
}

export interface TextBlock {
  lines: string[];
  /** Widest line in px. */
  width: number;
  height: number;
}

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;

/** Scripts written without spaces between words, whose words ICU finds by dictionary. */
const UNSPACED = /[\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;
const words = new Intl.Segmenter('und', { granularity: 'word' });
const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** The user-perceived characters of `s`: a base with its marks (Thai vowels, Indic viramas) stays whole. */
function clusters(s: string): string[] {
  return Array.from(graphemes.segment(s), (g) => g.segment);
}

/**
 * Words and the spaces after them; CJK ideographs break anywhere, so each is its own word;
 * Thai, Lao, Khmer and Burmese break between the words ICU's dictionaries find.
 */
function tokens(paragraph: string): string[] {
  const out: string[] = [];
  for (const part of paragraph.split(/(?<=\s)/u)) {
    if (UNSPACED.test(part) && !CJK.test(part)) {
      const pieces = Array.from(words.segment(part), (w) => w.segment);
      // A trailing space stays with the last word, as split() left it.
      for (const piece of pieces) {
        if (/^\s+$/u.test(piece) && out.length > 0) out[out.length - 1] += piece;
        else out.push(piece);
      }
      continue;
    }
    if (!CJK.test(part)) {
      out.push(part);
      continue;
    }
    let run = '';
    for (const ch of part) {
      if (CJK.test(ch)) {
        if (run) out.push(run);
        out.push(ch);
        run = '';
      } else run += ch;
    }
    if (run) out.push(run);
  }
  return out;
}

/**
 * Greedy line breaking (as CSS does for `white-space: normal`): words fill a line up to
 * `maxWidth`; a word wider than a line is broken between characters; `\n` starts a new line.
 */
export function layoutText(text: string, spec: TextBlockSpec, measure: TextMeasurer): TextBlock {
  const width = (s: string) => {
    const n = [...s].length;
    return measure.lineWidth(s, spec.font, spec.size) + spec.letterSpacing * Math.max(0, n - 1);
  };
  const lines: string[] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    let line = '';
    for (const token of tokens(paragraph)) {
      const candidate = line + token;
      if (line === '' || width(candidate.trimEnd()) <= spec.maxWidth) {
        line = candidate;
        continue;
      }
      lines.push(line.trimEnd());
      line = token.trimStart();
    }
    // Break single words that do not fit on any line (between user-perceived characters).
    while (line && width(line.trimEnd()) > spec.maxWidth && clusters(line).length > 1) {
      const chars = clusters(line);
      let n = chars.length - 1;
      while (n > 1 && width(chars.slice(0, n).join('')) > spec.maxWidth) n--;
      lines.push(chars.slice(0, n).join(''));
      line = chars.slice(n).join('');
    }
    lines.push(line.trimEnd());
  }
  const widest = Math.max(0, ...lines.map(width));
  return {
    lines,
    width: Math.min(widest, Math.max(spec.maxWidth, widest)),
    height: lines.length * spec.lineHeight,
  };
}

/**
 * `text_autofit`: the largest size from `maxSize` down to `minSize` (1 px steps, binary search)
 * whose wrapped block fits `maxWidth` x `maxHeight`; `minSize` when none does.
 */
export function fitText(
  text: string,
  spec: Omit<TextBlockSpec, 'size' | 'lineHeight'> & { lineHeightFactor: number; letterSpacingEm: number },
  bounds: { minSize: number; maxSize: number; maxHeight: number },
  measure: TextMeasurer,
): { size: number; block: TextBlock } {
  const at = (size: number) =>
    layoutText(
      text,
      { ...spec, size, lineHeight: size * spec.lineHeightFactor, letterSpacing: size * spec.letterSpacingEm },
      measure,
    );
  const fits = (b: TextBlock) => b.height <= bounds.maxHeight && b.width <= spec.maxWidth + 0.5;
  let lo = Math.floor(bounds.minSize);
  let hi = Math.floor(bounds.maxSize);
  if (fits(at(hi))) return { size: hi, block: at(hi) };
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(at(mid))) lo = mid;
    else hi = mid;
  }
  return { size: lo, block: at(lo) };
}
