import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { loadOnce } from '../../load-once.ts';

/**
 * A face of the system's Noto CJK fonts (Debian's fonts-noto-cjk, which `make install` adds for
 * Chromium): the raster renderer's stand-in for every character the bundled faces lack (Han,
 * kana, Hangul, and the symbols, arrows and box drawing these faces also hold).
 */
export interface SystemCjkFace {
  file: string;
  /** The face's index in its .ttc collection. */
  index: number;
  genre: 'sans' | 'serif' | 'mono';
  /** Han glyph forms differ by region (Japanese, Korean, Simplified and Traditional Chinese, Hong Kong). */
  region: CjkRegion;
  /** CSS weight (100-900). */
  weight: number;
  /** The face's PostScript name, by which Chromium finds the same face (`local()`). */
  postscriptName?: string;
}

export type CjkRegion = 'JP' | 'KR' | 'SC' | 'TC' | 'HK';

const FAMILY = /^Noto (Sans|Serif|Sans Mono) CJK (JP|KR|SC|TC|HK)$/;

/** fontconfig's weight scale to CSS weights (fontconfig.h's FC_WEIGHT_* constants). */
const FC_WEIGHTS: ReadonlyArray<readonly [fc: number, css: number]> = [
  [0, 100],
  [40, 200],
  [50, 300],
  [55, 350],
  [75, 380],
  [80, 400],
  [100, 500],
  [180, 600],
  [200, 700],
  [205, 800],
  [210, 900],
];

/** A fontconfig weight as the nearest CSS weight. */
export function cssWeight(fcWeight: number): number {
  let best = FC_WEIGHTS[0] as readonly [number, number];
  for (const pair of FC_WEIGHTS) if (Math.abs(pair[0] - fcWeight) < Math.abs(best[0] - fcWeight)) best = pair;
  return best[1];
}

/** The fc-list format `listSystemCjkFaces` asks for: file, index, first family name, weight, PostScript name. */
export const FC_LIST_FORMAT = '%{file}\\t%{index}\\t%{family[0]}\\t%{weight}\\t%{postscriptname}\\n';

/**
 * The Noto CJK faces in fc-list's output (FC_LIST_FORMAT). Variable faces (a weight range) are
 * left out: satori's font parser reads static CFF and TrueType outlines only.
 */
export function parseFcList(output: string): SystemCjkFace[] {
  const faces: SystemCjkFace[] = [];
  for (const line of output.split('\n')) {
    const [file, index, family, weight, postscriptName] = line.split('\t');
    const match = FAMILY.exec(family ?? '');
    if (!file || !match || !/^\d+$/.test(index ?? '') || !/^\d+(\.\d+)?$/.test(weight ?? '')) continue;
    const genre = match[1] === 'Serif' ? 'serif' : match[1] === 'Sans' ? 'sans' : 'mono';
    faces.push({
      file,
      index: Number(index),
      genre,
      region: match[2] as CjkRegion,
      weight: cssWeight(Number(weight)),
      ...(postscriptName ? { postscriptName } : {}),
    });
  }
  return faces;
}

/** The system's Noto CJK faces by fontconfig; none when fontconfig or the fonts are missing. */
export async function listSystemCjkFaces(): Promise<SystemCjkFace[]> {
  try {
    const { stdout } = await promisify(execFile)('fc-list', ['--format', FC_LIST_FORMAT], {
      timeout: 15_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return parseFcList(stdout);
  } catch {
    return [];
  }
}

/**
 * The region whose Han forms suit `text`: kana means Japanese and Hangul Korean; Han alone is
 * read as Simplified Chinese, the most common such text.
 */
export function cjkRegionFor(text: string): CjkRegion {
  if (/[\p{scx=Hiragana}\p{scx=Katakana}]/u.test(text)) return 'JP';
  if (/\p{scx=Hangul}/u.test(text)) return 'KR';
  return 'SC';
}

/**
 * The face for a family genre, region and weight: the genre's own faces (mono and serif fall
 * back to sans), in the region's forms when installed, at the nearest weight.
 */
export function pickCjkFace(
  faces: readonly SystemCjkFace[],
  wanted: { genre: SystemCjkFace['genre']; region: CjkRegion; weight: number },
): SystemCjkFace | null {
  const ofGenre = (genre: SystemCjkFace['genre']) => faces.filter((f) => f.genre === genre);
  let pool = ofGenre(wanted.genre);
  if (pool.length === 0) pool = ofGenre('sans');
  if (pool.length === 0) pool = [...faces];
  const inRegion = pool.filter((f) => f.region === wanted.region);
  if (inRegion.length > 0) pool = inRegion;
  let best: SystemCjkFace | null = null;
  for (const face of pool) {
    if (!best || Math.abs(face.weight - wanted.weight) < Math.abs(best.weight - wanted.weight)) best = face;
  }
  return best;
}

/** The exports of harfbuzzjs's hb-subset.wasm that `cutFace` uses. */
interface HbSubset {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_set_add(set: number, codePoint: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_WRITABLE = 2;

const compileSubsetter = loadOnce(async () => {
  const require = createRequire(import.meta.url);
  return WebAssembly.compile(await readFile(require.resolve('harfbuzzjs/hb-subset.wasm')));
});

/**
 * `face` cut by HarfBuzz to the glyphs of `text`'s characters: a font file of a few kB that satori
 * parses in a moment (the whole face is 20-27 MB of CFF). Each cut gets its own WebAssembly
 * instance, dropped afterwards, so the memory that held the font file goes back with it.
 */
export async function cutFace(face: SystemCjkFace, text: string): Promise<Buffer> {
  const [module, file] = await Promise.all([compileSubsetter(), readFile(face.file)]);
  const hb = (await WebAssembly.instantiate(module, {})).exports as unknown as HbSubset;
  const pointer = hb.malloc(file.byteLength);
  new Uint8Array(hb.memory.buffer).set(file, pointer);
  const blob = hb.hb_blob_create(pointer, file.byteLength, HB_MEMORY_MODE_WRITABLE, 0, 0);
  const source = hb.hb_face_create(blob, face.index);
  hb.hb_blob_destroy(blob);
  const input = hb.hb_subset_input_create_or_fail();
  const unicodes = hb.hb_subset_input_unicode_set(input);
  for (const ch of text) hb.hb_set_add(unicodes, ch.codePointAt(0) as number);
  const cut = hb.hb_subset_or_fail(source, input);
  hb.hb_subset_input_destroy(input);
  hb.hb_face_destroy(source);
  if (cut === 0) throw new Error(`HarfBuzz could not cut ${face.file} (face ${face.index})`);
  const result = hb.hb_face_reference_blob(cut);
  const length = hb.hb_blob_get_length(result);
  const bytes = Buffer.from(new Uint8Array(hb.memory.buffer, hb.hb_blob_get_data(result, 0), length));
  hb.hb_blob_destroy(result);
  hb.hb_face_destroy(cut);
  if (length === 0) throw new Error(`HarfBuzz could not cut ${face.file} (face ${face.index})`);
  return bytes;
}
