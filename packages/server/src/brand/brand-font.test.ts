import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BrandFontError,
  faceOfBytes,
  fallbackFont,
  fontKindOf,
  nearestCatalogueFamily,
} from './brand-font.ts';

const WOFF2 = readFileSync(
  path.resolve(
    import.meta.dirname,
    '../../../../test/fixtures/pages/brand-font/fonts/abril-fatface-latin-400-normal.woff2',
  ),
);

describe('brand font files', () => {
  it('knows a font file by its magic bytes only', () => {
    const pad = (head: string) => Buffer.concat([Buffer.from(head, 'latin1'), Buffer.alloc(16)]);
    expect(fontKindOf(pad('wOF2'))).toBe('woff2');
    expect(fontKindOf(pad('wOFF'))).toBe('woff');
    expect(fontKindOf(pad('\0\x01\0\0'))).toBe('truetype');
    expect(fontKindOf(pad('true'))).toBe('truetype');
    expect(fontKindOf(pad('OTTO'))).toBe('opentype');
    expect(fontKindOf(pad('<!do'))).toBeNull();
    expect(fontKindOf(pad('\x89PNG'))).toBeNull();
    expect(fontKindOf(Buffer.from('wOF2'))).toBeNull();
  });

  it('decodes a WOFF2 to a TrueType face both renderers read', async () => {
    const face = await faceOfBytes(WOFF2, 'x');
    expect(face.kind).toBe('truetype');
    expect(face.data.subarray(0, 4)).toEqual(Buffer.from([0, 1, 0, 0]));
  });

  it('refuses what is not a usable font, with a reason', async () => {
    await expect(faceOfBytes(Buffer.from('<!doctype html><p>hello</p>'), 'x')).rejects.toThrow(
      'the file is not a font',
    );
    // A WOFF2 header declaring a 100 MB face is refused before decompression.
    const bomb = Buffer.from(WOFF2);
    bomb.writeUInt32BE(100 * 1024 * 1024, 16);
    await expect(faceOfBytes(bomb, 'x')).rejects.toThrow('decompresses to more than 8 MB');
    // A truncated file: the right signature, no face.
    await expect(faceOfBytes(WOFF2.subarray(0, 400), 'x')).rejects.toBeInstanceOf(BrandFontError);
  });

  it('falls back to the nearest catalogue family: by name, then by generic class', () => {
    expect(nearestCatalogueFamily('playfair display', null)).toMatchObject({
      spec: { family: 'Playfair Display' },
      by: 'name',
    });
    expect(nearestCatalogueFamily('Playfair Display SC', 'serif').spec.family).toBe('Playfair Display');
    expect(nearestCatalogueFamily('Roboto Flex', 'sans-serif').spec.family).toBe('Roboto');
    expect(nearestCatalogueFamily('Acme Grotesk', 'monospace')).toMatchObject({
      spec: { family: 'JetBrains Mono' },
      by: 'class',
    });
    expect(nearestCatalogueFamily('Acme Serif Text', 'serif').spec.family).toBe('Lora');
    expect(nearestCatalogueFamily('Acme', null).spec.family).toBe('Inter');
    expect(fallbackFont('Acme', 'serif', 'the font file answered HTTP 404')).toEqual({
      kind: 'fallback',
      family: 'Lora',
      name: 'Acme',
      reason:
        'brand font Acme could not be used (the font file answered HTTP 404): nearest catalogue family Lora (by generic class serif) on the title',
    });
  });
});
