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
