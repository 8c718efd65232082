import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import opentype from 'opentype.js';
import sharp from 'sharp';
import type { FontRef } from '../scene-types.ts';
import { FONT_FAMILIES } from './font-families.ts';
import type { TextMeasurer } from './text-layout.ts';

/** A font face as satori takes it. */
export interface SatoriFont {
  name: string;
  data: Buffer;
  weight: 400 | 500 | 600 | 700 | 800;
  style: 'normal';
}

/**
 * The bundled fonts, loaded once at start-up and passed to the renderer: satori's font list
 * (one stable array, so satori's own per-array cache works), a measurer from the same files,
 * and an emoji image cache (Noto Color Emoji through the system's pango, since satori cannot
 * draw colour bitmap fonts itself).
 */
export interface FontCatalogue {
  fonts: SatoriFont[];
  measurer: TextMeasurer;
  /** Satori's `loadAdditionalAsset`: emoji as images; other scripts have no bundled face. */
  loadAdditionalAsset(languageCode: string, segment: string): Promise<string | SatoriFont[]>;
}

/** opentype.parse with the options the library takes (its type definitions leave them out). */
const parseFont = opentype.parse as (buffer: ArrayBuffer, options: { lowMemory: boolean }) => opentype.Font;

/** Reads the @fontsource .woff files of every family, weight and subset in FONT_FAMILIES. */
export async function loadFontCatalogue(): Promise<FontCatalogue> {
  const require = createRequire(import.meta.url);
  const fonts: SatoriFont[] = [];
  const faces = new Map<string, opentype.Font[]>();
  for (const family of FONT_FAMILIES) {
    const dir = path.join(path.dirname(require.resolve(`${family.packageName}/package.json`)), 'files');
    for (const weight of family.weights) {
      const list: opentype.Font[] = [];
      for (const subset of family.subsets) {
        const data = await readFile(path.join(dir, `${family.fileId}-${subset}-${weight}-normal.woff`));
        fonts.push({ name: family.family, data, weight: weight as SatoriFont['weight'], style: 'normal' });
        // lowMemory: glyphs are parsed when first asked for. Parsing every glyph of every face
        // up front kept 32 MB of objects on the heap for the life of the process (each full
        // collection marked them all), where the measurer reads a few hundred advance widths.
        const file = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
        list.push(parseFont(file, { lowMemory: true }));
      }
      faces.set(`${family.family}:${weight}`, list);
    }
  }
  const emoji = new Map<string, Promise<string>>();
  const measurer: TextMeasurer = {
    lineWidth(text: string, font: FontRef, size: number): number {
      const list = faces.get(`${font.family}:${font.weight}`) ?? faces.get('Inter:400') ?? [];
      let width = 0;
      for (const ch of text) {
        const face = list.find((f) => f.charToGlyphIndex(ch) > 0) ?? list[0];
        width += face ? face.getAdvanceWidth(ch, size, { kerning: false }) : size * 0.6;
      }
      return width;
    },
  };
  return {
    fonts,
    measurer,
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
