import { beforeAll, describe, expect, it } from 'vitest';
import type { FontRef } from '../scene-types.ts';
import { type FontCatalogue, loadFontCatalogue } from './font-catalogue.ts';

const inter: FontRef = { family: 'Inter', weight: 700 };
const lora: FontRef = { family: 'Lora', weight: 400 };

describe('the font catalogue', () => {
  let catalogue: FontCatalogue;
  let withoutCjk: FontCatalogue;

  beforeAll(async () => {
    catalogue = await loadFontCatalogue();
    withoutCjk = await loadFontCatalogue({ systemCjkFaces: async () => [] });
  });

  it('names each script subset of a family, so satori can reach them all', async () => {
    const faces = await catalogue.facesFor('Hello Привет Ωμέγα Zażółć', inter);
    expect(faces.fonts).toBe(catalogue.fonts);
    expect(faces.fontFamily).toBe('"Inter latin", "Inter latin-ext", "Inter cyrillic", "Inter greek"');
    expect(faces.missing).toEqual([]);
    expect(new Set(catalogue.fonts.map((f) => `${f.name}:${f.weight}`)).size).toBe(catalogue.fonts.length);
  });

  it('adds a system CJK face cut to the characters the bundled faces lack', async () => {
    const faces = await catalogue.facesFor('Title: 日本語のタイトル', inter);
    expect(faces.fonts).toHaveLength(catalogue.fonts.length + 1);
    const cut = faces.fonts.at(-1);
    expect(cut?.name).toBe('Vitrine CJK JP sans 700');
    expect(faces.fontFamily).toBe(
      '"Inter latin", "Inter latin-ext", "Inter cyrillic", "Inter greek", "Vitrine CJK JP sans 700"',
    );
    expect(cut?.data.byteLength).toBeLessThan(20_000);
    expect(faces.missing).toEqual([]);
    // Serif families get the serif CJK faces, Han alone the Simplified Chinese forms.
    const serif = await catalogue.facesFor('中文标题', lora);
    expect(serif.fonts.at(-1)?.name).toBe('Vitrine CJK SC serif 400');
  });

  it('reuses the cut for the same text, and cuts again for other text', async () => {
    const first = catalogue.facesFor('한국어 제목', inter);
    expect(catalogue.facesFor('한국어 제목', inter)).toBe(first);
    expect(catalogue.facesFor('제목 한국어', inter)).toBe(first);
    expect(catalogue.facesFor('다른 제목', inter)).not.toBe(first);
    expect((await first).fonts.at(-1)?.name).toBe('Vitrine CJK KR sans 700');
  });

  it('reports the characters no face has, and none for emoji or white space', async () => {
    const thai = await catalogue.facesFor('ภาษา 日本 😀👍🏽 🇯🇵\tok', inter);
    expect(thai.missing).toEqual(['ภ', 'ษ', 'า']);
    // Nothing the CJK faces have either: no cut face at all (it would have no character map).
    const thaiOnly = await catalogue.facesFor('ภาษา', inter);
    expect(thaiOnly.fonts).toBe(catalogue.fonts);
    expect(thaiOnly.missing).toEqual(['ภ', 'ษ', 'า']);
    const noSystemFaces = await withoutCjk.facesFor('Ship 日本語', inter);
    expect(noSystemFaces.fonts).toBe(withoutCjk.fonts);
    expect(noSystemFaces.missing).toEqual(['日', '本', '語']);
  });

  it('measures wide characters the bundled faces lack at 1 em, as the CJK faces set them', () => {
    expect(catalogue.measurer.lineWidth('日本語', inter, 20)).toBe(60);
    expect(catalogue.measurer.lineWidth('한국', inter, 10)).toBe(20);
    const latin = catalogue.measurer.lineWidth('abc', inter, 20);
    expect(latin).toBeGreaterThan(20);
    expect(latin).toBeLessThan(40);
  });
});
