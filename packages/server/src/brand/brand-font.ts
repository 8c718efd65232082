import crypto from 'node:crypto';
import type { BrandFontFile } from '@vitrine/contract';
import { LRUCache } from 'lru-cache';
import opentype from 'opentype.js';
import type { FontFaceSource, PageSignals } from '../ai/ai-types.ts';
import {
  FONT_FAMILIES,
  type FontFamilySpec,
  GENERIC_FONT_FAMILIES,
  registerBrandFace,
  resolveFontFamily,
} from '../compose/index.ts';
import { AppError } from '../errors/app-error.ts';
import { type GuardedFetch, isTooLarge } from '../netpolicy/guarded-fetch.ts';
import type { BlobStore } from '../storage/blob-store.ts';

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
 * The first of a family's sources that gives a usable face (at most SOURCES_TRIED of them, in
 * the page's order, skipping EOT and SVG fonts), or every reason none did.
 */
export async function firstUsableFace(
  sources: readonly FontFaceSource[],
  guardedFetch: GuardedFetch,
  signal: AbortSignal,
): Promise<{ face: BrandFace; weight: number } | { reasons: string[] }> {
  const usable = sources.filter((s) => s.format === null || READABLE.test(s.format)).slice(0, SOURCES_TRIED);
  if (usable.length === 0)
    return { reasons: ['the page declares it only in formats this server does not read'] };
  const reasons: string[] = [];
  for (const source of usable) {
    try {
      let face = fetched.get(source.url);
      if (!face) {
        face = await fetchBrandFace(source, guardedFetch, signal);
        fetched.set(source.url, face);
      }
      return { face, weight: source.weight };
    } catch (error) {
      signal.throwIfAborted();
      if (!(error instanceof BrandFontError)) throw error;
      reasons.push(error.message);
    }
  }
  return { reasons: [...new Set(reasons)] };
}

/** The hash a kept face goes by (hex SHA-256 of its bytes). */
export const faceHash = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/** Registers a usable face for both renderers and says so. */
export function ownFont(
  face: BrandFace,
  name: string,
  generic: string | null,
  weight: number,
): BrandTitleFont {
  const family = `Brand ${faceHash(face.data).slice(0, 16)}`;
  registerBrandFace({ family, data: face.data, kind: face.kind, genre: genreOf(generic), weight });
  return { kind: 'own', family, name, source: face.source };
}

/** The nearest catalogue family instead of a brand font that could not be used, and why. */
export function fallbackFont(name: string, generic: string | null, why: string): BrandTitleFont {
  const nearest = nearestCatalogueFamily(name, generic);
  const by = nearest.by === 'name' ? 'name' : `generic class ${generic ?? 'sans-serif'}`;
  return {
    kind: 'fallback',
    family: nearest.spec.family,
    name,
    reason: `brand font ${name} could not be used (${why}): nearest catalogue family ${nearest.spec.family} (by ${by}) on the title`,
  };
}

/**
 * The title font of a page whose heading (or body) family it loads as a web font: its own file
 * (fetched, checked, registered for both renderers), or, when none of its sources can be used,
 * the nearest catalogue family with the reason.
 */
export async function brandTitleFont(
  family: string,
  sources: readonly FontFaceSource[],
  generic: string | null,
  guardedFetch: GuardedFetch,
  signal: AbortSignal,
): Promise<BrandTitleFont> {
  const found = await firstUsableFace(sources, guardedFetch, signal);
  if ('face' in found) return ownFont(found.face, family, generic, found.weight);
  return fallbackFont(family, generic, found.reasons.join('; '));
}

/** Blob key of a brand's kept face (never served: the CDN serves brand PNGs only). */
export const brandFontKey = (sha256: string) => `brand-font/${sha256}`;

/**
 * The title font of a project's brand (its `fonts.file`, kept at extraction): the kept face read
 * back from the blob store and checked again, or the nearest catalogue family with the reason.
 */
export async function projectTitleFont(
  file: BrandFontFile,
  blobStore: Pick<BlobStore, 'get'>,
): Promise<BrandTitleFont> {
  if (!file.sha256 || !/^[a-f0-9]{64}$/.test(file.sha256)) {
    return fallbackFont(file.family, file.generic, file.error ?? 'no file was kept');
  }
  const blob = await blobStore.get(brandFontKey(file.sha256));
  if (!blob) return fallbackFont(file.family, file.generic, 'the kept font file is gone');
  try {
    const face = await faceOfBytes(Buffer.from(blob.data), file.source_url);
    return ownFont(face, file.family, file.generic, 400);
  } catch (error) {
    if (!(error instanceof BrandFontError)) throw error;
    return fallbackFont(file.family, file.generic, error.message);
  }
}

/**
 * Brand extraction's part: the file of the heading (else body) family the page loads, fetched
 * through the guarded fetch and kept in the blob store (decompressed, content-addressed); what
 * could not be used is recorded with its reason. Null when the page loads neither as a web font.
 */
export async function keepBrandFont(
  signals: PageSignals,
  deps: { guardedFetch: GuardedFetch; blobStore: Pick<BlobStore, 'put'> },
  signal: AbortSignal,
): Promise<BrandFontFile | null> {
  const web = webFontOf(signals);
  if (!web) return null;
  const found = await firstUsableFace(web.sources, deps.guardedFetch, signal);
  const sourceUrl = (web.sources[0]?.url ?? '').startsWith('data:')
    ? 'data: URL'
    : (web.sources[0]?.url ?? '');
  if (!('face' in found)) {
    return {
      family: web.family,
      source_url: sourceUrl,
      generic: web.generic,
      sha256: null,
      error: found.reasons.join('; '),
    };
  }
  const sha256 = faceHash(found.face.data);
  await deps.blobStore.put(brandFontKey(sha256), found.face.data, {
    contentType: { woff: 'font/woff', truetype: 'font/ttf', opentype: 'font/otf' }[found.face.kind],
  });
  return { family: web.family, source_url: found.face.source, generic: web.generic, sha256, error: null };
}

/** The family whose file a title could use: the heading's when the page loads it as a web font, else the body's. */
export function webFontOf(
  signals: PageSignals,
): { family: string; sources: FontFaceSource[]; generic: string | null } | null {
  const { heading, body, sources } = signals.fonts;
  if (!sources) return null;
  if (heading && sources.heading.length > 0)
    return { family: heading, sources: sources.heading, generic: sources.headingGeneric };
  if (body && sources.body.length > 0)
    return { family: body, sources: sources.body, generic: sources.bodyGeneric };
  return null;
}

function genreOf(generic: string | null): FontFamilySpec['genre'] {
  if (generic === 'monospace' || generic === 'ui-monospace') return 'mono';
  if (generic === 'serif' || generic === 'ui-serif' || generic === 'cursive' || generic === 'fantasy')
    return 'serif';
  return 'sans';
}
