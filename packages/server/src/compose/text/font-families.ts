import { FONT_FAMILY_DATA } from './font-families-data.ts';

/**
 * The bundled font catalogue as data (no I/O): family name, the weights shipped, and the
 * @fontsource package holding the files. Request fields name a family (case-insensitive) or a
 * generic family; anything else is a 400 listing these names.
 */
export interface FontFamilySpec {
  family: string;
  /** npm package with `files/<id>-<subset>-<weight>-normal.woff`. */
  packageName: string;
  fileId: string;
  weights: readonly number[];
  /** Unicode subsets loaded (fontsource splits each face by script). */
  subsets: readonly string[];
  /** Average advance as a fraction of the size; used only by the estimating measurer. */
  averageAdvance: number;
  /** Which of the system's CJK faces (and script faces) stands in for the scripts the family lacks. */
  genre: 'sans' | 'serif' | 'mono';
  /** The font's licence as its package declares it (SPDX). */
  license: string;
  /**
   * A brand's own face (issue 34, item 3), registered at run time, not in the catalogue: its
   * file (TrueType, OpenType or WOFF), one weight, one subset named `brand`.
   */
  file?: { data: Buffer; kind: 'woff' | 'truetype' | 'opentype' };
}

/** The catalogue (font-families-data.ts, generated from the @fontsource packages); Inter first, the default. */
export const FONT_FAMILIES: readonly FontFamilySpec[] = FONT_FAMILY_DATA;

/** Generic CSS families and the bundled family each maps to. */
export const GENERIC_FONT_FAMILIES: Readonly<Record<string, string>> = {
  'sans-serif': 'Inter',
  'system-ui': 'Inter',
  'ui-sans-serif': 'Inter',
  serif: 'Lora',
  'ui-serif': 'Lora',
  display: 'DM Serif Display',
  monospace: 'JetBrains Mono',
  'ui-monospace': 'JetBrains Mono',
};

/** Every accepted font name, for error messages and the docs. */
export const FONT_NAMES: readonly string[] = [
  ...FONT_FAMILIES.map((f) => f.family),
  ...Object.keys(GENERIC_FONT_FAMILIES),
];

/** The bundled family for a requested name, or null when it is not in the catalogue. */
export function resolveFontFamily(name: string): FontFamilySpec | null {
  const wanted = name
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  const mapped = GENERIC_FONT_FAMILIES[wanted] ?? wanted;
  return FONT_FAMILIES.find((f) => f.family.toLowerCase() === mapped.toLowerCase()) ?? null;
}

/** The shipped weight closest to the wanted one (ties go to the heavier). */
export function nearestWeight(spec: FontFamilySpec, wanted: number): number {
  let best = spec.weights[0] ?? 400;
  for (const w of spec.weights) if (Math.abs(w - wanted) <= Math.abs(best - wanted)) best = w;
  return best;
}

/** How many brand faces the process keeps registered (each up to 8 MB). */
export const BRAND_FACES_KEPT = 16;
const brandFaces = new Map<string, FontFamilySpec>();

/**
 * Registers a brand's own face under a name only it has (`Brand <hash of the file>`), for the
 * renderers to find by the title's family. Never a request field's value: resolveFontFamily
 * knows only the catalogue. The oldest of more than BRAND_FACES_KEPT is forgotten.
 */
export function registerBrandFace(face: {
  family: string;
  data: Buffer;
  kind: 'woff' | 'truetype' | 'opentype';
  genre: FontFamilySpec['genre'];
  weight: number;
}): FontFamilySpec {
  const known = brandFaces.get(face.family);
  if (known) {
    brandFaces.delete(face.family);
    brandFaces.set(face.family, known);
    return known;
  }
  const spec: FontFamilySpec = {
    family: face.family,
    packageName: '',
    fileId: '',
    weights: [Math.min(900, Math.max(100, Math.round(face.weight / 100) * 100))],
    subsets: ['brand'],
    averageAdvance: 0.55,
    genre: face.genre,
    license: 'the site’s own',
    file: { data: face.data, kind: face.kind },
  };
  brandFaces.set(face.family, spec);
  while (brandFaces.size > BRAND_FACES_KEPT) brandFaces.delete(brandFaces.keys().next().value as string);
  return spec;
}

/** A family the renderers can draw: the catalogue's (by resolveFontFamily) or a registered brand face (by its exact name). */
export function drawableFamily(name: string): FontFamilySpec | null {
  return resolveFontFamily(name) ?? brandFaces.get(name) ?? null;
}
