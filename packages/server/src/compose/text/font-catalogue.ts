import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { eastAsianWidthType } from 'get-east-asian-width';
import { LRUCache } from 'lru-cache';
import opentype from 'opentype.js';
import sharp from 'sharp';
import { loadOnce } from '../../load-once.ts';
import type { FontRef } from '../scene-types.ts';
import {
  BRAND_FACES_KEPT,
  drawableFamily,
  FONT_FAMILIES,
  type FontFamilySpec,
  nearestWeight,
} from './font-families.ts';
import {
  listScriptFaces,
  NEEDS_NO_FACE,
  pickScriptFace,
  type ScriptFace,
  scriptFacesFor,
} from './script-faces.ts';
import {
  cjkRegionFor,
  cutFace,
  listSystemCjkFaces,
  pickCjkFace,
  type SystemCjkFace,
} from './system-cjk-faces.ts';
import type { TextMeasurer } from './text-layout.ts';

/** A font face as satori takes it. */
export interface SatoriFont {
  name: string;
  data: Buffer;
  weight: 100 | 200 | 300 | 400 | 500 | 600 | 700 | 800 | 900;
  style: 'normal';
}

/** What satori needs to draw one text: its faces, the family list to ask for, and what no face has. */
export interface TextFaces {
  /** The bundled faces, plus a system CJK face cut to the text when the text needs one. */
  fonts: SatoriFont[];
  /** CSS font-family list: the family's faces (one per script subset), then the cut face. */
  fontFamily: string;
  /** Characters satori has no face for (neither bundled, nor the system's CJK faces, nor emoji). */
  missing: string[];
  /**
   * The script faces (script-faces.ts) that have the `missing` characters, in order of first use.
   * Text that needs any is drawn by Chromium, which shapes it and orders it right to left where
   * it should (satori does neither): renderers/raster/text.ts.
   */
  scriptFaces: ScriptFace[];
  /** Characters no face at all has: drawn as boxes by either renderer. */
  uncovered: string[];
}

/**
 * The bundled fonts, loaded once and passed to the renderer: satori's font list (one stable
 * array, so satori's own per-array cache works), a measurer from the same files, an emoji image
 * cache (Noto Color Emoji through the system's pango, since satori cannot draw colour bitmap
 * fonts itself), and the faces for scripts the bundled ones lack.
 */
export interface FontCatalogue {
  /** Satori's list for Inter (the default family); each family has its own (`facesFor`). */
  fonts: SatoriFont[];
  measurer: TextMeasurer;
  /** The faces satori needs for `text` in `font`. */
  facesFor(text: string, font: FontRef): Promise<TextFaces>;
  /** Satori's `loadAdditionalAsset`: emoji as images. */
  loadAdditionalAsset(languageCode: string, segment: string): Promise<string | SatoriFont[]>;
}

export interface FontCatalogueOptions {
  /** The system's CJK faces (default: fontconfig's list); none leaves CJK text to `missing`. */
  systemCjkFaces?: () => Promise<SystemCjkFace[]>;
  /** The script faces (default: SCRIPT_FONTS_DIR by fc-scan); none leaves such text `uncovered`. */
  scriptFaces?: () => Promise<ScriptFace[]>;
}

/** opentype.parse with the options the library takes (its type definitions leave them out). */
const parseFont = opentype.parse as (buffer: ArrayBuffer, options: { lowMemory: boolean }) => opentype.Font;

function parse(data: Buffer): opentype.Font {
  // lowMemory: glyphs are parsed when first asked for. Parsing every glyph of every face up
  // front kept 32 MB of objects on the heap for the life of the process (each full collection
  // marked them all), where the measurer reads a few hundred advance widths.
  return parseFont(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer, {
    lowMemory: true,
  });
}

/** How many cut faces (a few kB each) are kept for texts drawn again (titles repeat). */
const CUT_FACES_KEPT = 64;
/** How many emoji images (10-30 kB of PNG each) are kept. */
const EMOJI_KEPT = 512;

/** The satori name of a bundled face: fontsource splits a family by script into one file each. */
const faceName = (family: string, subset: string) => `${family} ${subset}`;

/** The CSS font-family list of a bundled family's faces, in the order satori tries them. */
const familyList = (family: FontFamilySpec) =>
  family.subsets.map((subset) => `"${faceName(family.family, subset)}"`).join(', ');

/** One family's faces: satori's list (the family's, then Inter's as the fallback) and the parsed faces by weight. */
interface LoadedFamily {
  fonts: SatoriFont[];
  parsed: Map<number, opentype.Font[]>;
}

/**
 * The font catalogue: a family's @fontsource .woff files (every weight and subset of it in
 * FONT_FAMILIES) are read the first time a text asks for the family, not at start-up (42 families,
 * about 600 files). Reading one family takes a few ms; a text in a family nobody asked for before
 * pays it once.
 */
export async function loadFontCatalogue(options: FontCatalogueOptions = {}): Promise<FontCatalogue> {
  const require = createRequire(import.meta.url);
  const families = new Map<string, LoadedFamily>();
  const readFamily = (
    family: FontFamilySpec,
  ): { fonts: SatoriFont[]; parsed: Map<number, opentype.Font[]> } => {
    const fonts: SatoriFont[] = [];
    const parsed = new Map<number, opentype.Font[]>();
    if (family.file) {
      // A brand's own face: one file, one weight (satori reads its TrueType, OpenType or WOFF).
      const weight = family.weights[0] ?? 400;
      const data = family.file.data;
      fonts.push({
        name: faceName(family.family, 'brand'),
        data,
        weight: satoriWeight(weight),
        style: 'normal',
      });
      parsed.set(weight, [parse(data)]);
      return { fonts, parsed };
    }
    const dir = path.join(path.dirname(require.resolve(`${family.packageName}/package.json`)), 'files');
    for (const weight of family.weights) {
      const list: opentype.Font[] = [];
      for (const subset of family.subsets) {
        const data = readFileSync(path.join(dir, `${family.fileId}-${subset}-${weight}-normal.woff`));
        // One name per subset: satori keeps a single face per name and weight, so faces of one
        // name would hide each other's scripts (Cyrillic and Greek were drawn as boxes).
        fonts.push({
          name: faceName(family.family, subset),
          data,
          weight: weight as SatoriFont['weight'],
          style: 'normal',
        });
        list.push(parse(data));
      }
      parsed.set(weight, list);
    }
    return { fonts, parsed };
  };
  const inter = readFamily(FONT_FAMILIES[0] as FontFamilySpec);
  families.set('Inter', inter);
  /** A family's faces, read when first asked for; satori's list is one stable array per family, so its own per-array cache works. */
  const familyOf = (spec: FontFamilySpec): LoadedFamily => {
    let loaded = families.get(spec.family);
    if (!loaded) {
      if (spec.file) {
        // Brand faces come and go (font-families.ts keeps the newest few): so do their loads.
        const brand = [...families.keys()].filter((name) => !FONT_FAMILIES.some((f) => f.family === name));
        for (const name of brand.slice(0, Math.max(0, brand.length - BRAND_FACES_KEPT + 1)))
          families.delete(name);
      }
      const own = readFamily(spec);
      // Inter's faces after the family's own: satori draws the Latin, Greek and Cyrillic a family
      // lacks from them, as it did when every family was in one list.
      loaded = { fonts: [...own.fonts, ...inter.fonts], parsed: own.parsed };
      families.set(spec.family, loaded);
    }
    return loaded;
  };
  const specOf = (family: string): FontFamilySpec =>
    FONT_FAMILIES.find((f) => f.family === family) ??
    drawableFamily(family) ??
    (FONT_FAMILIES[0] as FontFamilySpec);
  const facesOf = (font: FontRef): opentype.Font[] => {
    const loaded = familyOf(specOf(font.family));
    return loaded.parsed.get(font.weight) ?? [...loaded.parsed.values()][0] ?? [];
  };
  const interFaces = [...inter.parsed.values()].flat();
  const interFacesAt = (weight: number): opentype.Font[] =>
    inter.parsed.get(nearestWeight(FONT_FAMILIES[0] as FontFamilySpec, weight)) ?? [];
  /** Whether satori can draw `ch` in `spec`: the family's faces or Inter's have it. */
  const bundledHas = (spec: FontFamilySpec, ch: string) =>
    interFaces.some((f) => f.charToGlyphIndex(ch) > 0) ||
    [...familyOf(spec).parsed.values()].flat().some((f) => f.charToGlyphIndex(ch) > 0);
  // fc-scan of the script fonts' directory takes about 0.1 s; a face file is parsed when the
  // measurer first needs one of its characters.
  const scripts = await (options.scriptFaces ?? listScriptFaces)();
  const parsedScripts = new Map<string, opentype.Font | null>();
  const scriptFont = (face: ScriptFace): opentype.Font | null => {
    let parsed = parsedScripts.get(face.file);
    if (parsed === undefined) {
      try {
        parsed = parse(readFileSync(face.file));
      } catch {
        parsed = null;
      }
      parsedScripts.set(face.file, parsed);
    }
    return parsed;
  };
  const measurer: TextMeasurer = {
    lineWidth(text: string, font: FontRef, size: number): number {
      const list = facesOf(font);
      const genre = specOf(font.family).genre;
      // Inter after the family's faces, as satori's list has them.
      const fallback = font.family === 'Inter' ? list : [...list, ...interFacesAt(font.weight)];
      let width = 0;
      for (const ch of text) {
        const face = fallback.find((f) => f.charToGlyphIndex(ch) > 0);
        if (face) {
          width += face.getAdvanceWidth(ch, size, { kerning: false });
          continue;
        }
        // The system's CJK faces set wide characters (Han, kana, Hangul, full-width forms) 1 em apart.
        if (isWide(ch)) {
          width += size;
          continue;
        }
        // Other scripts: the script face's advance of the character (its nominal form; joined
        // Arabic and Indic conjuncts come out a little narrower once shaped).
        const script = pickScriptFace(scripts, ch.codePointAt(0) as number, { genre, weight: font.weight });
        const parsed = script ? scriptFont(script) : null;
        if (parsed) width += parsed.getAdvanceWidth(ch, size, { kerning: false });
        else width += list[0] ? list[0].getAdvanceWidth(ch, size, { kerning: false }) : size * 0.6;
      }
      return width;
    },
  };
  /** The script faces for what satori cannot draw, and what no face has. */
  const withScripts = (
    faces: Omit<TextFaces, 'scriptFaces' | 'uncovered'>,
    family: FontFamilySpec,
    weight: number,
  ): TextFaces => {
    const found = scriptFacesFor(
      faces.missing.join(''),
      scripts,
      { genre: family.genre, weight },
      () => false,
    );
    return { ...faces, scriptFaces: found.faces, uncovered: found.missing };
  };
  // fontconfig is asked once, by the first text that needs a face the bundle lacks.
  const cjkFaces = loadOnce(options.systemCjkFaces ?? listSystemCjkFaces);
  const cutFaces = new LRUCache<string, Promise<TextFaces>>({ max: CUT_FACES_KEPT });
  // Any sequence of emoji joined by ZWJ is a segment of its own: bounded, or a client could grow it.
  const emoji = new LRUCache<string, Promise<string>>({ max: EMOJI_KEPT });

  async function cutFacesFor(family: FontFamilySpec, font: FontRef, needed: string[]): Promise<TextFaces> {
    const fonts = familyOf(family).fonts;
    const noFace = withScripts(
      { fonts, fontFamily: familyList(family), missing: needed },
      family,
      font.weight,
    );
    const text = needed.join('');
    const face = pickCjkFace(await cjkFaces(), {
      genre: family.genre,
      region: cjkRegionFor(text),
      weight: font.weight,
    });
    if (!face) return noFace;
    let data: Buffer;
    let cut: opentype.Font;
    try {
      data = await cutFace(face, text);
      cut = parse(data);
    } catch {
      // A cut with none of the characters has no character map, which neither opentype.js nor
      // satori can read; a face file that went missing since fontconfig listed it reads the same.
      return noFace;
    }
    const name = `Vitrine CJK ${face.region} ${face.genre} ${face.weight}`;
    return withScripts(
      {
        fonts: [...fonts, { name, data, weight: satoriWeight(face.weight), style: 'normal' }],
        fontFamily: `${familyList(family)}, "${name}"`,
        missing: needed.filter((ch) => !(cut.charToGlyphIndex(ch) > 0)),
      },
      family,
      font.weight,
    );
  }

  return {
    fonts: inter.fonts,
    measurer,
    facesFor(text, font) {
      const family = specOf(font.family);
      const needed = [...new Set(text)]
        .filter((ch) => !NEEDS_NO_FACE.test(ch) && !bundledHas(family, ch))
        .sort();
      if (needed.length === 0)
        return Promise.resolve({
          fonts: familyOf(family).fonts,
          fontFamily: familyList(family),
          missing: [],
          scriptFaces: [],
          uncovered: [],
        });
      const key = `${family.family}:${font.weight}:${needed.join('')}`;
      let pending = cutFaces.get(key);
      if (!pending) {
        pending = cutFacesFor(family, font, needed);
        cutFaces.set(key, pending);
        pending.catch(() => cutFaces.delete(key));
      }
      return pending;
    },
    loadAdditionalAsset(languageCode, segment) {
      if (languageCode !== 'emoji') return Promise.resolve([]);
      let pending = emoji.get(segment);
      if (!pending) {
        const markup = `<span font="Noto Color Emoji">${segment.replace(/[<&>]/g, '')}</span>`;
        pending = sharp({ text: { text: markup, rgba: true, dpi: 288 } })
          .png()
          .toBuffer()
          .then((png) => `data:image/png;base64,${png.toString('base64')}`);
        emoji.set(segment, pending);
      }
      return pending;
    },
  };
}

function isWide(ch: string): boolean {
  const type = eastAsianWidthType(ch.codePointAt(0) as number);
  return type === 'wide' || type === 'fullwidth';
}

/** Satori's weight for a CSS weight (it takes whole hundreds). */
function satoriWeight(weight: number): SatoriFont['weight'] {
  return Math.min(900, Math.max(100, Math.round(weight / 100) * 100)) as SatoriFont['weight'];
}
