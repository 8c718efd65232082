import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { cssWeight } from './system-cjk-faces.ts';

/**
 * The script faces: Debian's fonts-noto-core (Regular and Bold of Noto Sans/Serif Arabic,
 * Hebrew, Devanagari, Bengali, Tamil, Thai, Georgian, Armenian, Ethiopic and about a hundred
 * more), which `make install` unpacks here rather than into the system's font directories.
 */
export const SCRIPT_FONTS_DIR = fileURLToPath(new URL('../../../dist/fonts/noto', import.meta.url));

/** One script face with the code points it covers. */
export interface ScriptFace {
  family: string;
  file: string;
  /** CSS weight (400 or 700). */
  weight: number;
  genre: 'sans' | 'serif' | 'other';
  /** Sorted, non-overlapping code point ranges. */
  ranges: ReadonlyArray<readonly [number, number]>;
}

/**
 * Characters satori draws without a font face: white space and controls, and emoji (drawn as
 * images by `loadAdditionalAsset`) with their joiners, selectors and modifiers.
 */
export const NEEDS_NO_FACE =
  /^(?:\p{White_Space}|\p{Cc}|\p{Cf}|\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u20e3|\ufe0e|\ufe0f)$/u;

/** The fc-scan format `listScriptFaces` asks for: family, weight, file, charset. */
export const FC_SCAN_FORMAT = '%{family[0]}\\t%{weight}\\t%{file}\\t%{charset}\\n';

/** Faces from fc-scan's output (FC_SCAN_FORMAT); `charset` is fontconfig's hex ranges. */
export function parseFcScan(output: string): ScriptFace[] {
  const faces: ScriptFace[] = [];
  for (const line of output.split('\n')) {
    const [family, weight, file, charset] = line.split('\t');
    if (!family || !file || !charset || !/^\d+(\.\d+)?$/.test(weight ?? '')) continue;
    const ranges: [number, number][] = [];
    for (const part of charset.trim().split(/\s+/)) {
      const [a, b] = part.split('-');
      const lo = Number.parseInt(a as string, 16);
      const hi = b === undefined ? lo : Number.parseInt(b, 16);
      if (Number.isFinite(lo) && Number.isFinite(hi)) ranges.push([lo, hi]);
    }
    ranges.sort((x, y) => x[0] - y[0]);
    const genre = /^Noto Sans\b/.test(family) ? 'sans' : /^Noto Serif\b/.test(family) ? 'serif' : 'other';
    faces.push({ family, file, weight: cssWeight(Number(weight)), genre, ranges });
  }
  return faces;
}

/** The script faces in `dir` by fontconfig's fc-scan; none when the directory or fc-scan is missing. */
export async function listScriptFaces(dir: string = SCRIPT_FONTS_DIR): Promise<ScriptFace[]> {
  try {
    const { stdout } = await promisify(execFile)('fc-scan', ['--format', FC_SCAN_FORMAT, dir], {
      timeout: 15_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return parseFcScan(stdout);
  } catch {
    return [];
  }
}

/** Whether `face` has a glyph for `code` (binary search over its ranges). */
export function faceCovers(face: ScriptFace, code: number): boolean {
  let lo = 0;
  let hi = face.ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = face.ranges[mid] as readonly [number, number];
    if (code < a) hi = mid - 1;
    else if (code > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * The face for a character: of the faces that have it, the wanted genre first (Noto Sans X for
 * sans and mono, Noto Serif X for serif), then the script's own designs (Naskh Arabic, Rashi
 * Hebrew), then the other genre; a script's own family before the pan-European Noto Sans and
 * Noto Serif; the nearest weight. Null when no face has it.
 */
export function pickScriptFace(
  faces: readonly ScriptFace[],
  code: number,
  wanted: { genre: 'sans' | 'serif' | 'mono'; weight: number },
): ScriptFace | null {
  const genre = wanted.genre === 'serif' ? 'serif' : 'sans';
  const rank = (f: ScriptFace) =>
    (f.genre === genre ? 0 : f.genre === 'other' ? 1 : 2) * 10 +
    (f.family === 'Noto Sans' || f.family === 'Noto Serif' ? 1 : 0);
  let best: ScriptFace | null = null;
  for (const face of faces) {
    if (!faceCovers(face, code)) continue;
    if (
      !best ||
      rank(face) < rank(best) ||
      (rank(face) === rank(best) &&
        (face.family === best.family
          ? Math.abs(face.weight - wanted.weight) < Math.abs(best.weight - wanted.weight)
          : face.family < best.family))
    )
      best = face;
  }
  return best;
}

/**
 * The script faces `text` needs, in order of first use: for each character that `has` says the
 * text's own faces lack, a face already chosen when it has the character (a danda in Devanagari
 * text stays in the Devanagari face), else `pickScriptFace`. Also the characters no face has.
 */
export function scriptFacesFor(
  text: string,
  faces: readonly ScriptFace[],
  wanted: { genre: 'sans' | 'serif' | 'mono'; weight: number },
  has: (ch: string) => boolean,
): { faces: ScriptFace[]; missing: string[] } {
  const chosen: ScriptFace[] = [];
  const missing: string[] = [];
  for (const ch of new Set(text)) {
    if (has(ch)) continue;
    const code = ch.codePointAt(0) as number;
    if (chosen.some((f) => faceCovers(f, code))) continue;
    const face = pickScriptFace(faces, code, wanted);
    if (face) chosen.push(face);
    else missing.push(ch);
  }
  return { faces: chosen, missing };
}
