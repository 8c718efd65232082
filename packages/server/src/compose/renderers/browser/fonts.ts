import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import opentype from 'opentype.js';
import type { FontRef } from '../../scene-types.ts';
import { FONT_FAMILIES } from '../../text/font-families.ts';

/** One subset file of a face with the code points it covers. */
interface SubsetFace {
  family: string;
  weight: number;
  /** `U+0000-00FF,...` as fontsource declares it. */
  unicodeRange: string;
  ranges: [number, number][];
  /** The `@font-face` rule with the file inlined as a data: URL. */
  rule: string;
}

/**
 * The bundled fonts as `@font-face` rules for the browser renderer: the same @fontsource faces
 * the raster renderer uses (woff2 of the same build: identical outlines, fewer bytes to send),
 * one rule per script subset with fontsource's `unicode-range`, so Chromium picks per character
 * what satori picks by glyph coverage. Loaded once, when the first styled capture needs it (app.ts).
 */
export interface BrowserFonts {
  /** The rules a document needs to draw `text` in `font` (only the subsets it touches). */
  faceCss(font: FontRef, text: string): string[];
  /** The face's hhea ascent and descent as fractions of the size (both positive). */
  metrics(font: FontRef): FontMetrics;
}

/** Vertical metrics of a face, in em. */
export interface FontMetrics {
  ascent: number;
  descent: number;
}

function parseRanges(unicodeRange: string): [number, number][] {
  return unicodeRange.split(',').map((part) => {
    const [a, b] = part.trim().replace(/^U\+/i, '').split('-');
    const lo = Number.parseInt(a as string, 16);
    return [lo, b === undefined ? lo : Number.parseInt(b, 16)];
  });
}

/** Reads fontsource's CSS for unicode ranges and the woff2 files of every family, weight and subset. */
export async function loadBrowserFonts(): Promise<BrowserFonts> {
  const require = createRequire(import.meta.url);
  const faces = new Map<string, SubsetFace[]>();
  const metrics = new Map<string, FontMetrics>();
  for (const family of FONT_FAMILIES) {
    const root = path.dirname(require.resolve(`${family.packageName}/package.json`));
    for (const weight of family.weights) {
      const css = await readFile(path.join(root, `${weight}.css`), 'utf8');
      const list: SubsetFace[] = [];
      const woff = await readFile(
        path.join(root, 'files', `${family.fileId}-${family.subsets[0]}-${weight}-normal.woff`),
      );
      const face = opentype.parse(woff.buffer.slice(woff.byteOffset, woff.byteOffset + woff.byteLength));
      metrics.set(`${family.family}:${weight}`, {
        ascent: face.ascender / face.unitsPerEm,
        descent: -face.descender / face.unitsPerEm,
      });
      for (const subset of family.subsets) {
        const file = `${family.fileId}-${subset}-${weight}-normal`;
        const block = css.split(`/* ${file} */`)[1]?.split('}')[0] ?? '';
        const unicodeRange = /unicode-range:\s*([^;]+);/.exec(block)?.[1]?.trim() ?? 'U+0-10FFFF';
        const data = await readFile(path.join(root, 'files', `${file}.woff2`));
        const rule =
          `@font-face{font-family:"${family.family}";font-style:normal;font-weight:${weight};` +
          `src:url(data:font/woff2;base64,${data.toString('base64')}) format("woff2");` +
          `unicode-range:${unicodeRange}}`;
        list.push({ family: family.family, weight, unicodeRange, ranges: parseRanges(unicodeRange), rule });
      }
      faces.set(`${family.family}:${weight}`, list);
    }
  }
  return {
    faceCss(font, text) {
      const list = faces.get(`${font.family}:${font.weight}`) ?? faces.get('Inter:400') ?? [];
      const codes = new Set<number>();
      for (const ch of text) codes.add(ch.codePointAt(0) as number);
      const used = list.filter((f) =>
        f.ranges.some(([lo, hi]) => {
          for (const c of codes) if (c >= lo && c <= hi) return true;
          return false;
        }),
      );
      return used.map((f) => f.rule);
    },
    metrics(font) {
      return (
        metrics.get(`${font.family}:${font.weight}`) ??
        metrics.get('Inter:400') ?? { ascent: 0.9, descent: 0.25 }
      );
    },
  };
}
