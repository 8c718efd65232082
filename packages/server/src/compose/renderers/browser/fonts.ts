import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import opentype from 'opentype.js';
import type { FontRef, SceneText } from '../../scene-types.ts';
import {
  BRAND_FACES_KEPT,
  drawableFamily,
  FONT_FAMILIES,
  type FontFamilySpec,
  nearestWeight,
} from '../../text/font-families.ts';
import { listScriptFaces, NEEDS_NO_FACE, type ScriptFace, scriptFacesFor } from '../../text/script-faces.ts';
import {
  cjkRegionFor,
  listSystemCjkFaces,
  pickCjkFace,
  type SystemCjkFace,
} from '../../text/system-cjk-faces.ts';

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
  /** The rules a document needs to draw `text` in `font` (only the subsets it touches, and the script faces). */
  faceCss(font: FontRef, text: string): string[];
  /**
   * The script faces' family names for `text` in `font`, to list after the family: the
   * characters the family lacks are drawn in the same Noto faces whichever renderer draws them,
   * never in whatever fontconfig would pick for the page.
   */
  scriptFamilies(font: FontRef, text: string): string[];
  /** The face's hhea ascent and descent as fractions of the size (both positive). */
  metrics(font: FontRef): FontMetrics;
  /**
   * Per line of `t`, how far below Chromium's baseline satori puts it, in px: satori sets a
   * line on the baseline of its tallest word, and a word in the system's CJK face (taller than
   * the bundled faces) moves the line down; Chromium keeps the primary font's baseline at a
   * fixed line height. Zero for text satori does not draw (it needs script faces).
   */
  satoriBaselineShifts(t: SceneText): number[];
}

/** hhea ascent and descent of every Noto CJK face (1160 and 288 units of 1000). */
const NOTO_CJK_METRICS: FontMetrics = { ascent: 1.16, descent: 0.288 };

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

/** The name a script face goes by in documents. */
const scriptFamilyName = (face: ScriptFace) => `Vitrine ${face.family} ${face.weight}`;

/**
 * Reads fontsource's CSS for unicode ranges and the woff2 files of every family, weight and
 * subset; the script faces are listed here and read when a text first needs one.
 */
export async function loadBrowserFonts(
  options: {
    scriptFaces?: () => Promise<ScriptFace[]>;
    systemCjkFaces?: () => Promise<SystemCjkFace[]>;
  } = {},
): Promise<BrowserFonts> {
  const [scripts, cjk] = await Promise.all([
    (options.scriptFaces ?? listScriptFaces)(),
    (options.systemCjkFaces ?? listSystemCjkFaces)(),
  ]);
  /**
   * The system CJK face the raster renderer cuts for the same text (font-catalogue.ts picks it
   * the same way), by its PostScript name: Chromium's own fallback would pick another region's
   * forms or weight.
   */
  const cjkFaceOf = (font: FontRef, text: string): SystemCjkFace | null => {
    const wide = [...text].filter(isWide).join('');
    if (!wide) return null;
    const face = pickCjkFace(cjk, { genre: genreOf(font), region: cjkRegionFor(wide), weight: font.weight });
    return face?.postscriptName ? face : null;
  };
  const cjkFamilyName = (face: SystemCjkFace) => `Vitrine CJK ${face.postscriptName}`;
  const cjkRule = (face: SystemCjkFace) =>
    `@font-face{font-family:"${cjkFamilyName(face)}";font-style:normal;font-weight:100 900;` +
    `src:local("${(face.postscriptName as string).replace(/["\\]/g, '')}")}`;
  const scriptRules = new Map<string, string>();
  const scriptRule = (face: ScriptFace): string => {
    let rule = scriptRules.get(face.file);
    if (rule === undefined) {
      // One weight per face, declared for every weight so Chromium never synthesises bold.
      rule =
        `@font-face{font-family:"${scriptFamilyName(face)}";font-style:normal;font-weight:100 900;` +
        `src:url(data:font/ttf;base64,${readFileSync(face.file).toString('base64')}) format("truetype")}`;
      scriptRules.set(face.file, rule);
    }
    return rule;
  };
  const require = createRequire(import.meta.url);
  const faces = new Map<string, SubsetFace[]>();
  const metrics = new Map<string, FontMetrics>();
  const loadedFamilies = new Set<string>();
  /** Reads a family's CSS, woff2 files and metrics the first time a text asks for it (as font-catalogue.ts does). */
  const loadFamily = (family: FontFamilySpec): void => {
    if (loadedFamilies.has(family.family)) return;
    if (family.file) {
      loadBrandFace(family, family.file);
      return;
    }
    const root = path.dirname(require.resolve(`${family.packageName}/package.json`));
    for (const weight of family.weights) {
      const css = readFileSync(path.join(root, `${weight}.css`), 'utf8');
      const list: SubsetFace[] = [];
      const woff = readFileSync(
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
        const data = readFileSync(path.join(root, 'files', `${file}.woff2`));
        const rule =
          `@font-face{font-family:"${family.family}";font-style:normal;font-weight:${weight};` +
          `src:url(data:font/woff2;base64,${data.toString('base64')}) format("woff2");` +
          `unicode-range:${unicodeRange}}`;
        list.push({ family: family.family, weight, unicodeRange, ranges: parseRanges(unicodeRange), rule });
      }
      faces.set(`${family.family}:${weight}`, list);
    }
    loadedFamilies.add(family.family);
  };
  /** Brand faces loaded, oldest first (font-families.ts keeps the newest few registered). */
  const brandLoaded: string[] = [];
  /**
   * A brand's own face (issue 34, item 3): its one file as one rule, declared for every weight
   * (as satori, which has only this face, draws it), its unicode-range from its character map.
   */
  const loadBrandFace = (family: FontFamilySpec, file: NonNullable<FontFamilySpec['file']>): void => {
    const weight = family.weights[0] ?? 400;
    const data = file.data;
    const face = opentype.parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
    const codes = Object.keys(face.tables.cmap?.glyphIndexMap ?? {})
      .map(Number)
      .sort((a, b) => a - b);
    const ranges: [number, number][] = [];
    for (const c of codes) {
      const last = ranges[ranges.length - 1];
      if (last && c === last[1] + 1) last[1] = c;
      else ranges.push([c, c]);
    }
    const unicodeRange = ranges
      .map(([lo, hi]) => (lo === hi ? `U+${lo.toString(16)}` : `U+${lo.toString(16)}-${hi.toString(16)}`))
      .join(',');
    const mime = {
      woff: ['font/woff', 'woff'],
      truetype: ['font/ttf', 'truetype'],
      opentype: ['font/otf', 'opentype'],
    }[file.kind];
    const rule =
      `@font-face{font-family:"${family.family}";font-style:normal;font-weight:100 900;` +
      `src:url(data:${mime[0]};base64,${data.toString('base64')}) format("${mime[1]}");` +
      `unicode-range:${unicodeRange}}`;
    metrics.set(`${family.family}:${weight}`, {
      ascent: face.ascender / face.unitsPerEm,
      descent: -face.descender / face.unitsPerEm,
    });
    faces.set(`${family.family}:${weight}`, [{ family: family.family, weight, unicodeRange, ranges, rule }]);
    loadedFamilies.add(family.family);
    brandLoaded.push(family.family);
    while (brandLoaded.length > BRAND_FACES_KEPT) {
      const old = brandLoaded.shift() as string;
      loadedFamilies.delete(old);
      for (const key of [...faces.keys()]) if (key.startsWith(`${old}:`)) faces.delete(key);
      for (const key of [...metrics.keys()]) if (key.startsWith(`${old}:`)) metrics.delete(key);
    }
  };
  const inter = FONT_FAMILIES[0] as FontFamilySpec;
  loadFamily(inter);
  /** The subset faces of `font`, its family read first if it has not been. */
  const subsetsOf = (font: FontRef): SubsetFace[] => {
    const spec = drawableFamily(font.family) ?? inter;
    loadFamily(spec);
    return faces.get(`${spec.family}:${font.weight}`) ?? faces.get('Inter:400') ?? [];
  };
  const genreOf = (font: FontRef) => drawableFamily(font.family)?.genre ?? 'sans';
  const covers = (list: readonly SubsetFace[], c: number) =>
    list.some((f) => f.ranges.some(([lo, hi]) => c >= lo && c <= hi));
  /**
   * Inter's subset faces for the characters `font`'s family lacks and Inter has: satori draws
   * those from Inter (its list has Inter's faces after the family's), so Chromium must too.
   */
  const interFallback = (font: FontRef, text: string): SubsetFace[] => {
    if (font.family === inter.family) return [];
    const own = subsetsOf(font);
    const fallback = subsetsOf({ family: inter.family, weight: nearestWeight(inter, font.weight) });
    const codes = [...new Set(text)].map((ch) => ch.codePointAt(0) as number).filter((c) => !covers(own, c));
    return fallback.filter((f) => codes.some((c) => covers([f], c)));
  };
  const scriptFacesOf = (font: FontRef, text: string): ScriptFace[] => {
    const list = subsetsOf(font);
    const interList = subsetsOf({ family: inter.family, weight: nearestWeight(inter, font.weight) });
    const has = (ch: string) => {
      if (NEEDS_NO_FACE.test(ch) || isWide(ch)) return true;
      const c = ch.codePointAt(0) as number;
      return covers(list, c) || covers(interList, c);
    };
    return scriptFacesFor(text, scripts, { genre: genreOf(font), weight: font.weight }, has).faces;
  };
  const metricsOf = (font: FontRef): FontMetrics => {
    subsetsOf(font);
    return (
      metrics.get(`${font.family}:${font.weight}`) ??
      metrics.get('Inter:400') ?? { ascent: 0.9, descent: 0.25 }
    );
  };
  return {
    scriptFamilies(font, text) {
      const face = cjkFaceOf(font, text);
      return [
        ...(interFallback(font, text).length > 0 ? [inter.family] : []),
        ...scriptFacesOf(font, text).map(scriptFamilyName),
        ...(face ? [cjkFamilyName(face)] : []),
      ];
    },
    faceCss(font, text) {
      const face = cjkFaceOf(font, text);
      const script = [...scriptFacesOf(font, text).map(scriptRule), ...(face ? [cjkRule(face)] : [])];
      const list = subsetsOf(font);
      const codes = new Set<number>();
      for (const ch of text) codes.add(ch.codePointAt(0) as number);
      const used = list.filter((f) =>
        f.ranges.some(([lo, hi]) => {
          for (const c of codes) if (c >= lo && c <= hi) return true;
          return false;
        }),
      );
      return [...used.map((f) => f.rule), ...interFallback(font, text).map((f) => f.rule), ...script];
    },
    satoriBaselineShifts(t) {
      const text = t.lines.join('');
      const none = t.lines.map(() => 0);
      if (scriptFacesOf(t.font, text).length > 0 || !cjkFaceOf(t.font, text)) return none;
      const primary = metricsOf(t.font);
      const cjkTaller = NOTO_CJK_METRICS.ascent + NOTO_CJK_METRICS.descent > primary.ascent + primary.descent;
      if (!cjkTaller) return none;
      const baseline = (m: FontMetrics) =>
        Math.round((t.lineHeight - (m.ascent + m.descent) * t.size) / 2 + m.ascent * t.size);
      const shift = baseline(NOTO_CJK_METRICS) - baseline(primary);
      return t.lines.map((line) => ([...line].some(isWide) ? shift : 0));
    },
    metrics: metricsOf,
  };
}

/** Han, kana, Hangul and full-width forms: left to the system's Noto CJK, as before. */
function isWide(ch: string): boolean {
  return /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\u3000-\u303f\uff00-\uffef]/u.test(ch);
}
