import { describe, expect, it } from 'vitest';
import type { PageSignals } from '../ai/ai-types.ts';
import { type DeclaredMetadata, pageMetadataOf } from './page-metadata.ts';

const declared: DeclaredMetadata = {
  title: 'T',
  description: null,
  canonical: 'https://example.com/a',
  favicon: null,
  themeColor: '#fff',
  language: 'en',
  openGraph: { title: 'OG' },
  twitter: {},
};
const signals = {
  colors: {
    buttons: ['rgb(1, 2, 3)'],
    links: [],
    headings: [],
    customProperties: [],
    body: { text: 'a', background: 'b' },
  },
  fonts: { heading: 'Inter', body: null },
} as unknown as PageSignals;

describe('pageMetadataOf', () => {
  it('maps the declarations and the signals onto the result', () => {
    expect(pageMetadataOf(declared, signals)).toEqual({
      title: 'T',
      description: null,
      canonical_url: 'https://example.com/a',
      favicon_url: null,
      theme_color: '#fff',
      language: 'en',
      open_graph: { title: 'OG' },
      twitter: {},
      colors: { text: 'a', background: 'b', buttons: ['rgb(1, 2, 3)'], links: [], headings: [] },
      fonts: { headings: 'Inter', body: null },
    });
  });

  it('refuses what a hostile page could answer instead: huge text, too many tags, wrong shapes', () => {
    expect(pageMetadataOf({ ...declared, title: 'x'.repeat(2001) }, signals)).toBeNull();
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(pageMetadataOf({ ...declared, openGraph: many }, signals)).toBeNull();
    expect(
      pageMetadataOf({ ...declared, title: { toString: 'x' } as unknown as string }, signals),
    ).toBeNull();
    expect(pageMetadataOf(declared, { colors: null } as unknown as PageSignals)).toBeNull();
  });
});
