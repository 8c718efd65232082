import crypto from 'node:crypto';
import { LRUCache } from 'lru-cache';
import opentype from 'opentype.js';
import type { FontFaceSource } from '../ai/ai-types.ts';
import {
  FONT_FAMILIES,
  type FontFamilySpec,
  GENERIC_FONT_FAMILIES,
  registerBrandFace,
  resolveFontFamily,
} from '../compose/text/font-families.ts';
import { AppError } from '../errors/app-error.ts';
import { type GuardedFetch, isTooLarge } from '../netpolicy/guarded-fetch.ts';

/** Largest font file fetched (compressed, as served). */
export const BRAND_FONT_MAX_BYTES = 2 * 1024 * 1024;
/** Largest decompressed face a WOFF2 may declare. */
const SFNT_MAX_BYTES = 8 * 1024 * 1024;
/** How many sources of one family are tried. */
const SOURCES_TRIED = 3;

export type FontFileKind = 'woff2' | 'woff' | 'truetype' | 'opentype';

/** What a font file is by its first four bytes, or null when it is no font format we read. */
export function fontKindOf(bytes: Uint8Array): FontFileKind | null {
  if (bytes.length < 12) return null;
  const tag = Buffer.from(bytes.subarray(0, 4)).toString('latin1');
  if (tag === 'wOF2') return 'woff2';
  if (tag === 'wOFF') return 'woff';
  if (tag === 'OTTO') return 'opentype';
  if (tag === '\0\x01\0\0' || tag === 'true') return 'truetype';
  return null;
}

/** A face satori and Chromium both read: WOFF2 decompressed to its sfnt (satori reads WOFF, TTF, OTF). */
export interface BrandFace {
  data: Buffer;
  kind: Exclude<FontFileKind, 'woff2'>;
  /** The URL it came from (a data: URL is named as such, not copied). */
  source: string;
}

/** Why a brand's font could not be used: a short reason for `ai_decisions`, never an address. */
export class BrandFontError extends Error {}

async function decodeWoff2(bytes: Buffer): Promise<Buffer> {
  // The header's totalSfntSize (offset 16) bounds what decompression may produce.
  const declared = bytes.readUInt32BE(16);
  if (declared > SFNT_MAX_BYTES) throw new BrandFontError('the font file decompresses to more than 8 MB');
  let out: Uint8Array;
  try {
    out = await (await import('wawoff2')).default.decompress(bytes);
  } catch {
    throw new BrandFontError('the WOFF2 file could not be decompressed');
  }
  if (out.length > SFNT_MAX_BYTES) throw new BrandFontError('the font file decompresses to more than 8 MB');
  return Buffer.from(out);
}

/**
 * Reads a font file's bytes into a face both renderers draw, or throws a BrandFontError: font
 * files only (their magic bytes), WOFF2 decompressed, the result parsed (opentype.js, what satori
 * uses) and required to have the Latin letters a title is written in.
 */
export async function faceOfBytes(bytes: Buffer, source: string): Promise<BrandFace> {
  const kind = fontKindOf(bytes);
  if (!kind)
    throw new BrandFontError('the file is not a font (no WOFF2, WOFF, TrueType or OpenType signature)');
  const data = kind === 'woff2' ? await decodeWoff2(bytes) : bytes;
  let font: opentype.Font;
  try {
    font = opentype.parse(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  } catch {
    throw new BrandFontError('the font file could not be parsed');
  }
  const letters = 'AEOaeo';
  if (!font.unitsPerEm || [...letters].some((ch) => !(font.charToGlyphIndex(ch) > 0))) {
    throw new BrandFontError('the font has no Latin letters');
  }
  const sfntKind = fontKindOf(data);
  return {
    data,
    kind: sfntKind === 'woff' ? 'woff' : sfntKind === 'opentype' ? 'opentype' : 'truetype',
    source,
  };
}

/**
 * Fetches one font source through the guarded fetch (the network policy, no redirects followed,
 * at most BRAND_FONT_MAX_BYTES) or decodes its data: URL, and reads it (faceOfBytes).
 */
export async function fetchBrandFace(
  source: FontFaceSource,
  guardedFetch: GuardedFetch,
  signal: AbortSignal,
): Promise<BrandFace> {
  if (source.url.startsWith('data:')) {
    const comma = source.url.indexOf(',');
    const meta = source.url.slice(5, comma);
    const payload = source.url.slice(comma + 1);
    const bytes = meta.endsWith(';base64')
      ? Buffer.from(payload, 'base64')
      : Buffer.from(decodeURIComponent(payload), 'latin1');
    if (bytes.length > BRAND_FONT_MAX_BYTES) throw new BrandFontError('the font file is larger than 2 MB');
    return faceOfBytes(bytes, 'data: URL');
  }
  let response: Awaited<ReturnType<GuardedFetch>>;
  try {
    response = await guardedFetch(source.url, {
      maxBytes: BRAND_FONT_MAX_BYTES,
      timeoutMs: 10_000,
      signal,
      field: 'brand font',
      headers: { accept: 'font/woff2,font/woff,font/ttf,font/otf,*/*;q=0.1' },
    });
  } catch (error) {
    signal.throwIfAborted();
    if (isTooLarge(error)) throw new BrandFontError('the font file is larger than 2 MB');
    if (error instanceof AppError && error.code === 'target_not_allowed') {
      throw new BrandFontError('the font file is on an address this server does not fetch from');
    }
    throw new BrandFontError('the font file could not be fetched');
  }
  if (response.status !== 200) throw new BrandFontError(`the font file answered HTTP ${response.status}`);
  return faceOfBytes(response.body, source.url);
}

/** Formats tried, in the page's order; EOT and SVG fonts are skipped. */
const READABLE = /^(woff2|woff|truetype|opentype|ttf|otf)$/i;

/** The catalogue family nearest a brand's family: by name (one is the other's first words), else by its generic class. */
export function nearestCatalogueFamily(
  family: string,
  generic: string | null,
): { spec: FontFamilySpec; by: 'name' | 'class' } {
  const exact = resolveFontFamily(family);
  if (exact) return { spec: exact, by: 'name' };
  const wanted = family.toLowerCase().replace(/["']/g, '').trim();
  const byName = [...FONT_FAMILIES]
    .filter((f) => {
      const name = f.family.toLowerCase();
      return wanted.startsWith(`${name} `) || name.startsWith(`${wanted} `);
    })
    .sort((a, b) => b.family.length - a.family.length)[0];
  if (byName) return { spec: byName, by: 'name' };
  const generics: Record<string, string> = { cursive: 'serif', fantasy: 'display' };
  const mapped = generic ? (generics[generic] ?? generic) : 'sans-serif';
  const spec =
    resolveFontFamily(GENERIC_FONT_FAMILIES[mapped] ? mapped : 'sans-serif') ??
    (FONT_FAMILIES[0] as FontFamilySpec);
  return { spec, by: 'class' };
}

/** What a brand's font comes to for the title. */
export type BrandTitleFont =
  /** The site's own file, registered under `family` (a name only this face has). */
  | { kind: 'own'; family: string; name: string; source: string }
  /** A catalogue family instead, and why. */
  | { kind: 'fallback'; family: string; name: string; reason: string };

/** Faces fetched recently, by source URL (titles of one site repeat); failures are not kept. */
const fetched = new LRUCache<string, BrandFace>({
  max: 32,
  ttl: 3600_000,
  maxSize: 64 * 1024 * 1024,
  sizeCalculation: (f) => f.data.length,
});

/**
 * The title font of a brand whose heading (or body) family the page loads as a web font: its own
 * file (fetched, checked, registered for both renderers), or, when none of its sources can be
 * used, the nearest catalogue family with the reason. Null when the family has no sources.
 */
export async function brandTitleFont(
  family: string,
  sources: readonly FontFaceSource[],
  generic: string | null,
  guardedFetch: GuardedFetch,
  signal: AbortSignal,
): Promise<BrandTitleFont | null> {
  const usable = sources.filter((s) => s.format === null || READABLE.test(s.format)).slice(0, SOURCES_TRIED);
  if (sources.length === 0) return null;
  const reasons: string[] = [];
  for (const source of usable) {
    try {
      let face = fetched.get(source.url);
      if (!face) {
        face = await fetchBrandFace(source, guardedFetch, signal);
        fetched.set(source.url, face);
      }
      const hash = crypto.createHash('sha256').update(face.data).digest('hex').slice(0, 16);
      const registered = `Brand ${hash}`;
      registerBrandFace({
        family: registered,
        data: face.data,
        kind: face.kind,
        genre: genreOf(generic),
        weight: source.weight,
      });
      return { kind: 'own', family: registered, name: family, source: face.source };
    } catch (error) {
      signal.throwIfAborted();
      if (!(error instanceof BrandFontError)) throw error;
      reasons.push(error.message);
    }
  }
  const nearest = nearestCatalogueFamily(family, generic);
  const why =
    reasons.length > 0
      ? [...new Set(reasons)].join('; ')
      : 'the page declares it only in formats this server does not read';
  return {
    kind: 'fallback',
    family: nearest.spec.family,
    name: family,
    reason: `brand font ${family} could not be used (${why}): nearest catalogue family ${nearest.spec.family} (by ${nearest.by === 'name' ? 'name' : `generic class ${generic ?? 'sans-serif'}`}) on the title`,
  };
}

function genreOf(generic: string | null): FontFamilySpec['genre'] {
  if (generic === 'monospace' || generic === 'ui-monospace') return 'mono';
  if (generic === 'serif' || generic === 'ui-serif' || generic === 'cursive' || generic === 'fantasy')
    return 'serif';
  return 'sans';
}
