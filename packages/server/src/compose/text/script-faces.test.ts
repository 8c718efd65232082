import { describe, expect, it } from 'vitest';
import { listScriptFaces, parseFcScan, pickScriptFace, scriptFacesFor } from './script-faces.ts';

const SCAN = [
  'Noto Sans Arabic\t80\t/f/NotoSansArabic-Regular.ttf\t20 600-6ff fe70-fefc',
  'Noto Sans Arabic\t200\t/f/NotoSansArabic-Bold.ttf\t20 600-6ff fe70-fefc',
  'Noto Naskh Arabic\t80\t/f/NotoNaskhArabic-Regular.ttf\t20 600-6ff',
  'Noto Sans Hebrew\t200\t/f/NotoSansHebrew-Bold.ttf\t20 591-5c7 5d0-5ea',
  'Noto Serif Hebrew\t80\t/f/NotoSerifHebrew-Regular.ttf\t20 591-5c7 5d0-5ea',
  'Noto Sans Devanagari\t80\t/f/NotoSansDevanagari-Regular.ttf\t900-97f 964-965',
  'Noto Sans Bengali\t80\t/f/NotoSansBengali-Regular.ttf\t964-965 980-9ff',
  'Noto Sans\t80\t/f/NotoSans-Regular.ttf\t20-7e 370-3ff',
  'broken line',
].join('\n');

describe('script faces', () => {
  const faces = parseFcScan(SCAN);

  it('reads family, weight, file and coverage from fc-scan', () => {
    expect(faces).toHaveLength(8);
    expect(faces[1]).toMatchObject({ family: 'Noto Sans Arabic', weight: 700, genre: 'sans' });
    expect(faces[2]?.genre).toBe('other');
    expect(faces[4]?.genre).toBe('serif');
  });

  it('picks the genre, then the script design, then the nearest weight', () => {
    expect(pickScriptFace(faces, 0x627, { genre: 'sans', weight: 700 })?.file).toBe(
      '/f/NotoSansArabic-Bold.ttf',
    );
    expect(pickScriptFace(faces, 0x627, { genre: 'sans', weight: 400 })?.file).toBe(
      '/f/NotoSansArabic-Regular.ttf',
    );
    // No Noto Serif Arabic: the Naskh design before the sans.
    expect(pickScriptFace(faces, 0x627, { genre: 'serif', weight: 400 })?.family).toBe('Noto Naskh Arabic');
    expect(pickScriptFace(faces, 0x5d0, { genre: 'serif', weight: 700 })?.family).toBe('Noto Serif Hebrew');
    expect(pickScriptFace(faces, 0x5d0, { genre: 'mono', weight: 700 })?.family).toBe('Noto Sans Hebrew');
    expect(pickScriptFace(faces, 0xe000, { genre: 'sans', weight: 400 })).toBeNull();
  });

  it('keeps a text in the faces it already uses and lists what no face has', () => {
    const found = scriptFacesFor('नमस्ते। \ue000', faces, { genre: 'sans', weight: 400 }, (ch) => ch === ' ');
    // The danda (U+0964) is in both Indic faces: it stays with the Devanagari one.
    expect(found.faces.map((f) => f.family)).toEqual(['Noto Sans Devanagari']);
    expect(found.missing).toEqual(['\ue000']);
  });

  it('finds the faces make install unpacked', async () => {
    const installed = await listScriptFaces();
    const has = (code: number) => pickScriptFace(installed, code, { genre: 'sans', weight: 700 })?.family;
    expect(has(0x627)).toBe('Noto Sans Arabic');
    expect(has(0x5d0)).toBe('Noto Sans Hebrew');
    expect(has(0x915)).toBe('Noto Sans Devanagari');
    expect(has(0xe01)).toBe('Noto Sans Thai');
    expect(has(0x10d0)).toBe('Noto Sans Georgian');
    expect(has(0x531)).toBe('Noto Sans Armenian');
    expect(has(0xb95)).toBe('Noto Sans Tamil');
  });
});
